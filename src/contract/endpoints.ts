import type { z } from 'zod';
import { CompanyInfoAnswer, ConsentAnswer, ConsentBody, GeocodeAnswer, GeocodeQuery, InterestsAnswer, OkAnswer, RegionsAnswer, SettingsAnswer } from './public.ts';
import { LoggedInAnswer, LoginBody, PushBody, UserAnswer, UserSettingsBody } from './user.ts';
import {
  DeleteBody,
  DeleteReasonsAnswer,
  MailChangeBody,
  MailEventAnswer,
  MailEventBody,
  NotificationSettings,
  NotificationsBody,
  PasswordBody,
  ResetBody,
  ResetRequestBody,
  SignupBody,
  TokenBody,
} from './accounts.ts';
import { MemberAnswer, MemberQuery, PhotoIdBody, PhotosAnswer, ProfileAnswer, ProfileBody, ProfileOptionsAnswer, SetMainPhotoBody, SignupMatchesAnswer } from './profile.ts';
import { SearchAnswer, SearchParams } from './search.ts';
import {
  AutoLikeAnswer,
  BlockedAnswer,
  ComplaintAnswer,
  ComplaintBody,
  StatementsAnswer,
  DeckAnswer,
  LikeAnswer,
  LikesAnswer,
  LikesQuery,
  MatchFinderAnswer,
  ProfileIdBody,
  SwipeAnswer,
  SwipeBody,
} from './likes.ts';
import { ChatQuery, ChatsAnswer, ConversationAnswer, DeleteChatBody, GifQuery, GifsAnswer, GiftsAnswer, PhotoSendFields, SendAnswer, SendBody, TypingBody } from './chat.ts';
import {
  DiscountAnswer,
  DiscountQuery,
  PackagesAnswer,
  PaymentAnswer,
  PaymentQuery,
  RepeatAnswer,
  RepeatOfferAnswer,
  StartPaymentAnswer,
  StartPaymentBody,
  TestCheckoutBody,
  TestCheckoutQuery,
  TransactionsAnswer,
  TransactionsQuery,
  WebhookBody,
} from './payments.ts';
import { OpenApiAnswer } from './errors.ts';
import { DirectDebitBody, DirectDebitConfirmAnswer, DirectDebitConfirmBody, DirectDebitFormAnswer, DirectDebitOrderAnswer } from './directdebit.ts';

/** What an endpoint takes and answers: the body and query schemas, and the 2xx JSON answer (or what it answers instead). */
export interface Endpoint {
  body?: z.ZodType;
  query?: z.ZodType;
  answer: z.ZodType | 'redirect' | 'html' | 'stream' | 'empty';
}

/**
 * Every route of /api/ by `METHOD path`, with its variant as the route declares it (`?push=1`: a
 * query parameter picks it; `#token`: a body with that field does). The server's route
 * declarations use these same schemas (a unit test checks that the two agree); the browser's
 * typed client reads this map as a type only, so no schema is bundled with an island.
 */
export const ENDPOINTS = {
  'GET settings.php': { answer: SettingsAnswer },
  'POST consent.php': { body: ConsentBody, answer: ConsentAnswer },
  'GET companyinfo.php': { answer: CompanyInfoAnswer },
  'GET interests.php': { answer: InterestsAnswer },
  'GET regions.php': { answer: RegionsAnswer },
  'GET geocode.php': { query: GeocodeQuery, answer: GeocodeAnswer },
  'POST page-hidden.php': { answer: 'empty' },
  'GET user.php': { answer: UserAnswer },
  'POST user.php': { body: LoginBody, answer: LoggedInAnswer },
  'POST user.php?push=1': { body: PushBody, answer: OkAnswer },
  'PUT user.php': { body: UserSettingsBody, answer: LoggedInAnswer },
  'POST logout.php': { answer: OkAnswer },
  'GET logout.php': { answer: OkAnswer },
  'POST signup.php': { body: SignupBody, answer: LoggedInAnswer },
  'GET activate.php': { answer: 'redirect' },
  'POST activate.php': { body: TokenBody, answer: LoggedInAnswer },
  'POST activate.php?resend=1': { answer: OkAnswer },
  'POST reset-password.php': { body: ResetRequestBody, answer: OkAnswer },
  'POST reset-password.php#token': { body: ResetBody, answer: OkAnswer },
  'POST mail-change.php': { body: MailChangeBody, answer: OkAnswer },
  'POST mail-change.php#token': { body: TokenBody, answer: OkAnswer },
  'POST password.php': { body: PasswordBody, answer: OkAnswer },
  'GET account.php': { answer: DeleteReasonsAnswer },
  'DELETE account.php': { body: DeleteBody, answer: OkAnswer },
  'POST account.php?reactivate=1': { body: TokenBody, answer: LoggedInAnswer },
  'GET profile.php': { answer: ProfileAnswer },
  'PUT profile.php': { body: ProfileBody, answer: ProfileAnswer },
  'GET profile-options.php': { answer: ProfileOptionsAnswer },
  'GET member.php': { query: MemberQuery, answer: MemberAnswer },
  'GET signup-matches.php': { answer: SignupMatchesAnswer },
  'GET notifications.php': { answer: NotificationSettings },
  'PUT notifications.php': { body: NotificationsBody, answer: NotificationSettings },
  'POST unsubscribe.php': { answer: OkAnswer },
  'GET unsubscribe.php': { answer: 'html' },
  'GET photos.php': { answer: PhotosAnswer },
  'POST photos.php': { answer: PhotosAnswer },
  'PUT photos.php': { body: SetMainPhotoBody, answer: PhotosAnswer },
  'DELETE photos.php': { body: PhotoIdBody, answer: PhotosAnswer },
  'GET members.php': { query: SearchParams, answer: SearchAnswer },
  'POST like.php': { body: ProfileIdBody, answer: LikeAnswer },
  'DELETE like.php': { body: ProfileIdBody, answer: OkAnswer },
  'GET likes.php': { query: LikesQuery, answer: LikesAnswer },
  'GET auto-like.php': { answer: AutoLikeAnswer },
  'GET swipe.php': { answer: DeckAnswer },
  'POST swipe.php': { body: SwipeBody, answer: SwipeAnswer },
  'GET match-finder.php': { answer: MatchFinderAnswer },
  'GET block.php': { answer: BlockedAnswer },
  'POST block.php': { body: ProfileIdBody, answer: OkAnswer },
  'DELETE block.php': { body: ProfileIdBody, answer: OkAnswer },
  'POST complaint.php': { body: ComplaintBody, answer: ComplaintAnswer },
  'GET statements.php': { answer: StatementsAnswer },
  'GET chats.php': { answer: ChatsAnswer },
  'GET chat.php': { query: ChatQuery, answer: ConversationAnswer },
  'POST chat.php?photo=1': { query: PhotoSendFields, answer: SendAnswer },
  'POST chat.php': { body: SendBody, answer: SendAnswer },
  'DELETE chat.php': { body: DeleteChatBody, answer: OkAnswer },
  'POST chat-typing.php': { body: TypingBody, answer: OkAnswer },
  'GET gifts.php': { answer: GiftsAnswer },
  'GET gifs.php': { query: GifQuery, answer: GifsAnswer },
  'POST mail-events.php': { body: MailEventBody, answer: MailEventAnswer },
  'GET packages.php': { answer: PackagesAnswer },
  'POST payment.php': { body: StartPaymentBody, answer: StartPaymentAnswer },
  'GET discountcode.php': { query: DiscountQuery, answer: DiscountAnswer },
  'GET repeat-order.php': { answer: RepeatOfferAnswer },
  'POST repeat-order.php': { answer: RepeatAnswer },
  'DELETE saved-card.php': { answer: OkAnswer },
  'GET transactions.php': { query: TransactionsQuery, answer: TransactionsAnswer },
  'GET directdebit.php': { answer: DirectDebitFormAnswer },
  'POST directdebit.php': { body: DirectDebitBody, answer: DirectDebitOrderAnswer },
  'POST directdebit.php?confirm=1': { body: DirectDebitConfirmBody, answer: DirectDebitConfirmAnswer },
  'GET payment.php': { query: PaymentQuery, answer: PaymentAnswer },
  'POST payment-webhook.php': { body: WebhookBody, answer: OkAnswer },
  'GET test-checkout.php': { query: TestCheckoutQuery, answer: 'html' },
  'POST test-checkout.php': { body: TestCheckoutBody, answer: 'redirect' },
  'GET events.php': { answer: 'stream' },
  'GET openapi.json': { answer: OpenApiAnswer },
  'GET docs': { answer: 'html' },
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof ENDPOINTS;
export type EndpointKey = keyof Endpoints;

/** The key of a route in ENDPOINTS: method, path, and the variant that picks it. */
export function endpointKey(route: { method: string; path: string; variant?: { query?: Record<string, string>; bodyHas?: string } }): string {
  const { variant } = route;
  return `${route.method} ${route.path}${variant?.query ? `?${new URLSearchParams(variant.query).toString()}` : ''}${variant?.bodyHas ? `#${variant.bodyHas}` : ''}`;
}

type AnswerSchemaOf<K extends EndpointKey> = Endpoints[K]['answer'];
/** The JSON answer of an endpoint (never for one that answers a redirect, a page or a stream). */
export type AnswerOf<K extends EndpointKey> = AnswerSchemaOf<K> extends z.ZodType ? z.output<AnswerSchemaOf<K>> : never;
/** The body an endpoint takes, as the browser writes it. */
export type BodyOf<K extends EndpointKey> = Endpoints[K] extends { body: infer B extends z.ZodType } ? z.input<B> : undefined;
/** The query an endpoint takes, as the browser writes it. */
export type QueryOf<K extends EndpointKey> = Endpoints[K] extends { query: infer Q extends z.ZodType } ? z.input<Q> : undefined;
