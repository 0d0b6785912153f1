import { useStore } from '@nanostores/react';
import { $brandNames } from '../stores/staff.ts';

/**
 * A brand as the console names it: its name, and for another brand of the staff member's pool
 * (issue 24) its domain beside it, so a member of that brand reads as theirs at a glance. An id
 * the staff member's brands do not know shows as itself.
 */
export default function BrandName({ id }: { id: string }) {
  const brand = useStore($brandNames).get(id);
  if (!brand) return <>{id}</>;
  if (!brand.pool) return <>{brand.name}</>;
  return (
    <>
      {brand.name} <span className="whitespace-nowrap text-xs text-slate-500">({brand.domain})</span>
    </>
  );
}
