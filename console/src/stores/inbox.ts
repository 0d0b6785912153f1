import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, toLogin, type AnswerOf } from '../lib/api.ts';

export interface InboxState {
  brand: string;
  list: AnswerOf<'GET inbox'> | null;
  stats: AnswerOf<'GET inbox/stats'> | null;
  error: string;
}

export interface ConversationState {
  id: number | null;
  data: AnswerOf<'GET inbox/:id'> | null;
  error: string;
  /** A refused reply's catalogue message (what staffReplyRefusal found), shown by the reply box. */
  replyError: string;
  sending: boolean;
}

/** The waiting conversations and the brands' figures (console/src/pages/[locale]/inbox.astro). */
export const $inbox = atom<InboxState>({ brand: '', list: null, stats: null, error: '' });
/** The conversation open beside the list. */
export const $conversation = atom<ConversationState>({ id: null, data: null, error: '', replyError: '', sending: false });

const message = (e: unknown) => (e instanceof ConsoleApiError ? e.message : String(e));

/** Loads the first page of waiting conversations and the figures, for one brand or every brand in scope. */
export async function loadInbox(brand = $inbox.get().brand): Promise<void> {
  try {
    const [list, stats] = await Promise.all([consoleApi('GET inbox', { query: { brand } }), consoleApi('GET inbox/stats', { query: { brand } })]);
    $inbox.set({ brand, list, stats, error: '' });
  } catch (e) {
    $inbox.set({ ...$inbox.get(), brand, error: message(e) });
  }
}

/** Opens a conversation beside the list (its history, both cards, the claim). */
export async function openConversation(id: number): Promise<void> {
  const same = $conversation.get().id === id;
  $conversation.set({ ...$conversation.get(), id, error: '', ...(same ? {} : { data: null, replyError: '' }) });
  try {
    const data = await consoleApi('GET inbox/:id', { params: { id } });
    if ($conversation.get().id === id) $conversation.set({ ...$conversation.get(), data, error: '' });
  } catch (e) {
    if ($conversation.get().id === id) $conversation.set({ ...$conversation.get(), error: message(e) });
  }
}

async function act(run: () => Promise<unknown>): Promise<void> {
  const id = $conversation.get().id;
  if (id === null) return;
  try {
    await run();
  } catch (e) {
    $conversation.set({ ...$conversation.get(), error: message(e) });
  }
  await Promise.all([openConversation(id), loadInbox()]);
}

export const claim = () => act(() => consoleApi('POST inbox/:id/claim', { params: { id: $conversation.get().id! } }));
export const release = () => act(() => consoleApi('POST inbox/:id/release', { params: { id: $conversation.get().id! } }));

/** Sends the reply as the fictional profile; true when sent (a refusal's message stays beside the box). */
export async function reply(body: { text: string } | { gift: string } | { photo: number }): Promise<boolean> {
  const id = $conversation.get().id;
  if (id === null) return false;
  $conversation.set({ ...$conversation.get(), sending: true, replyError: '' });
  try {
    await consoleApi('POST inbox/:id', { params: { id }, body: { ...body, client_id: crypto.randomUUID() } });
    $conversation.set({ ...$conversation.get(), sending: false });
    await Promise.all([openConversation(id), loadInbox()]);
    return true;
  } catch (e) {
    $conversation.set({ ...$conversation.get(), sending: false, replyError: message(e) });
    return false;
  }
}

let source: EventSource | null = null;
let pending: ReturnType<typeof setTimeout> | undefined;

/**
 * Listens to the console's event stream (GET /api/console/events): a member's message, a claim, a
 * release or a reply anywhere reloads the list (once for a burst) and the open conversation if it
 * is that one. The browser reconnects by itself; the list is read again when it does.
 */
export function listenInbox(): void {
  if (source) return;
  source = new EventSource('/api/console/events');
  const heard = (event: MessageEvent<string>) => {
    const { conversation_id } = JSON.parse(event.data) as { conversation_id: number };
    clearTimeout(pending);
    pending = setTimeout(() => void loadInbox(), 150);
    if ($conversation.get().id === conversation_id) void openConversation(conversation_id);
  };
  for (const type of ['inbox_message', 'inbox_claim', 'inbox_release', 'inbox_reply']) source.addEventListener(type, heard as EventListener);
  source.addEventListener('ready', () => void loadInbox());
  // The session ended (logged out elsewhere, role changed, removed): to the login page.
  source.addEventListener('session_ended', () => {
    source?.close();
    toLogin();
  });
}
