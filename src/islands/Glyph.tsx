import type { CSSProperties } from 'react';
import { iconUrl, isIconId } from '../lib/icons.ts';

interface Props {
  /** A Tabler icon id (`tabler:<name>`) or a brand's own text or emoji. */
  icon: string;
  className?: string;
}

/**
 * An icon named in data (an interest, the brand's fictional_icon): a Tabler id is drawn from its
 * SVG file as a mask in the text colour (.icon-mask), anything else is the brand's own text.
 * Always decorative: what it means is said by the element around it. Astro pages render it
 * without hydrating.
 */
export function Glyph({ icon, className = '' }: Props) {
  if (isIconId(icon)) {
    const style = { '--icon': `url(${iconUrl(icon)})` } as CSSProperties;
    return <span aria-hidden="true" className={`icon-mask ${className}`.trim()} style={style} />;
  }
  return (
    <span aria-hidden="true" className={className || undefined}>
      {icon}
    </span>
  );
}
