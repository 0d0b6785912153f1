/**
 * A list page's filters live in the address (`?q=&brand=&page=`), so a search can be reloaded,
 * bookmarked and gone back to: read once when the page opens, written on every search.
 */
export function filtersFromAddress<K extends string>(names: readonly K[]): Partial<Record<K, string>> {
  const params = new URLSearchParams(location.search);
  const filters: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

export function filtersToAddress(filters: Record<string, string | number | undefined>): void {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== undefined && value !== '' && !(name === 'page' && Number(value) === 1)) params.set(name, String(value));
  history.replaceState(null, '', `${location.pathname}${params.size ? `?${params}` : ''}`);
}
