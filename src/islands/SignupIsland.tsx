/** Placeholder-free minimal signup entry until the full signup island lands (issue: accounts). */
export default function SignupIsland({ locale }: { locale: string }) {
  return <div data-locale={locale} />;
}
