import type { ReactNode } from 'react';
import { useHydrated } from '../useHydrated.ts';

interface SwitchProps {
  id: string;
  label: string;
  hint?: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}

/**
 * An on/off setting: a checkbox with the switch role, its label and hint beside it. Disabled until
 * its island has hydrated: a click before would flip the box in the page and save nothing.
 */
export function Switch({ id, label, hint, checked, disabled = false, onChange }: SwitchProps) {
  const hydrated = useHydrated();
  return (
    <div className="flex items-start justify-between gap-4 py-3">
      <div className="min-w-0">
        <label htmlFor={id} className="font-semibold text-gray-900">{label}</label>
        {hint && <p id={`${id}-hint`} className="text-sm text-gray-600">{hint}</p>}
      </div>
      <span className="relative inline-flex shrink-0">
        <input
          id={id}
          type="checkbox"
          role="switch"
          className="peer absolute inset-0 m-0 h-full w-full cursor-pointer opacity-0 disabled:cursor-not-allowed"
          checked={checked}
          disabled={disabled || !hydrated}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
        <span
          aria-hidden="true"
          className={`pointer-events-none block h-7 w-12 rounded-full transition-colors peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary peer-disabled:opacity-50 ${checked ? 'bg-primary' : 'bg-gray-300'}`}
        >
          <span className={`block h-6 w-6 translate-y-0.5 rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-5.5' : 'translate-x-0.5'}`} />
        </span>
      </span>
    </div>
  );
}
