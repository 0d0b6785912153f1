/**
 * Text a person cannot type (issue 20): C0 control characters other than tab, line feed and
 * carriage return; DEL; the C1 controls U+0080-U+009F; and a UTF-16 surrogate without its other
 * half, which UTF-8 cannot carry (a driver would store U+FFFD in its place). PostgreSQL refuses
 * NUL outright (error 22021: a 500 before this rule). Every field of every body and query holding one is refused, by the router, before
 * the route's schema reads it; whether a one-line field also refuses a line break is that field's
 * schema's business.
 */
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a text holds a character a person cannot type (see above). */
export function hasForbiddenControl(text: string): boolean {
  return FORBIDDEN_CONTROL.test(text);
}

/** A value met on the walk, linked to where it was met (its path is built only for the one refused). */
interface Step {
  value: unknown;
  key: string | number | null;
  parent: Step | null;
}

function pathOf(step: Step): (string | number)[] {
  const path: (string | number)[] = [];
  for (let s: Step | null = step; s && s.key !== null; s = s.parent) path.push(s.key);
  return path.reverse();
}

/**
 * The path of the first string in a parsed body or query (JSON, form or query string) that holds
 * a forbidden character, as a key or as a value; null when there is none. Walked with a stack of
 * its own, so a deeply nested body cannot exhaust the call stack or cost more than its size.
 */
export function forbiddenTextPath(value: unknown): (string | number)[] | null {
  const stack: Step[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const current = step.value;
    if (typeof current === 'string') {
      if (hasForbiddenControl(current)) return pathOf(step);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: step });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const child: Step = { value: item, key, parent: step };
        stack.push(child);
        // The name itself is text from outside too: checked before its value.
        if (hasForbiddenControl(key)) stack.push({ value: key, key, parent: step });
      }
    }
  }
  return null;
}
