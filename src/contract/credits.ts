/**
 * Why credits moved (the `reason` of a ledger entry, shown on /transactions). Each names what its
 * `ref` points at; where `once` is set, an entry with that reference can exist only once (a
 * payment credits once, a message is charged once), enforced by a unique index.
 */
export const LEDGER_REASONS = {
  /** The brand's signup credits (ref: none). */
  signup: { sign: 1, once: false },
  /** A credit bundle bought (ref: the provider's payment id). */
  purchase: { sign: 1, once: true },
  /** A gift of credits by the operator or a promotion such as the time bonus (ref: its id, if any). */
  bonus: { sign: 1, once: true },
  /** The credits of a message a moderator did not deliver (issue 22, held messages; ref: the message id). */
  not_delivered: { sign: 1, once: true },
  /** A payment given back (ref: the provider's refund id). */
  refund: { sign: -1, once: true },
  /** A text message sent (ref: the message id). */
  message: { sign: -1, once: true },
  /** A photo sent in a chat (ref: the message id). */
  photo: { sign: -1, once: true },
  /** A gift sent in a chat (ref: the message id). */
  gift: { sign: -1, once: true },
} as const;

export type LedgerReason = keyof typeof LEDGER_REASONS;
/** Reasons that add credits (`grant`) and those that take them (`spend`). */
export type GrantReason = { [R in LedgerReason]: (typeof LEDGER_REASONS)[R]['sign'] extends 1 ? R : never }[LedgerReason];
export type SpendReason = Exclude<LedgerReason, GrantReason>;
