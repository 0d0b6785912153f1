/**
 * Keeps Tab and Shift+Tab inside the open modal dialog (the entry warning, the signup modal, any
 * island's dialog). showModal() makes the page behind inert, but the browser still lets focus
 * leave the dialog for its own toolbar and the document body; a modal keeps it, cycling from the
 * last control to the first. Installed once per page by the Base layout.
 */
const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'summary',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusables(dialog: HTMLDialogElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden], [inert]') && el.getClientRects().length > 0);
}

export function trapFocusInModals(doc: Document = document): void {
  doc.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    // The last modal opened is on top.
    const dialog = [...doc.querySelectorAll<HTMLDialogElement>('dialog[open]')].filter((d) => d.matches(':modal')).at(-1);
    if (!dialog) return;
    const items = focusables(dialog);
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = doc.activeElement;
    const inside = active instanceof Node && dialog.contains(active);
    // The dialog itself (focused on opening) counts as before the first control.
    if (event.shiftKey ? active === first || active === dialog || !inside : active === last || !inside) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  });
}
