import { Glyph } from '../Glyph.tsx';
import type { Interest } from '../../stores/profile.ts';

interface Props {
  interests: Interest[];
  selected: string[];
  labelledBy: string;
  onChange: (selected: string[]) => void;
}

/** The interests of SPEC §2 as icon toggle buttons (aria-pressed). */
export function InterestToggles({ interests, selected, labelledBy, onChange }: Props) {
  const chosen = new Set(selected);
  function toggle(key: string) {
    onChange(chosen.has(key) ? selected.filter((k) => k !== key) : [...selected, key]);
  }
  return (
    <ul className="flex flex-wrap gap-2" aria-labelledby={labelledBy}>
      {interests.map((interest) => {
        const on = chosen.has(interest.key);
        return (
          <li key={interest.key}>
            <button
              type="button"
              aria-pressed={on}
              onClick={() => toggle(interest.key)}
              className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1.5 text-sm font-medium transition-colors cursor-pointer ${
                on ? 'border-primary bg-primary text-white' : 'border-gray-300 bg-white text-gray-800 hover:border-primary'
              }`}
            >
              <Glyph icon={interest.icon} className={on ? 'text-lg' : 'text-lg text-primary'} />
              {interest.label}
              {on && <span aria-hidden="true">✓</span>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
