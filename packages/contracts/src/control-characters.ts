/**
 * The C0 control characters no input may hold: U+0000–U+0008, U+000B, U+000C, U+000E–U+001F and
 * U+007F. Tab, line feed and carriage return stay allowed (multi-line fields such as feedback).
 * PostgreSQL refuses U+0000 in text and jsonb, and the others have no business in a name, a note
 * or a search either, so every call refuses them before its input is read.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The path of a value inside a request's input: object keys and array indexes. */
export type TInputPath = (string | number)[];

const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object';

/** A container met on the walk; its path is kept as a link to its parent, built only on a hit. */
interface TStep {
  value: object;
  parent: TStep | null;
  key: string | number;
}

function pathOf(step: TStep, last: string | number): TInputPath {
  const path: TInputPath = [last];
  for (let at: TStep | null = step; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The path of a string (value or object key) holding a control character, or null when there is
 * none. Walks objects and arrays without recursion, so a deeply nested body cannot overflow the
 * stack. An empty path means the value itself is such a string.
 */
export function findControlCharacter(value: unknown): TInputPath | null {
  if (typeof value === 'string') return CONTROL_CHARACTER.test(value) ? [] : null;
  if (!isContainer(value)) return null;
  const stack: TStep[] = [{ value, parent: null, key: '' }];
  while (stack.length > 0) {
    const step = stack.pop() as TStep;
    const nested: TStep[] = [];
    if (Array.isArray(step.value)) {
      const list: unknown[] = step.value;
      for (let index = 0; index < list.length; index++) {
        const item = list[index];
        if (typeof item === 'string') {
          if (CONTROL_CHARACTER.test(item)) return pathOf(step, index);
        } else if (isContainer(item)) nested.push({ value: item, parent: step, key: index });
      }
    } else {
      for (const [key, item] of Object.entries(step.value)) {
        if (CONTROL_CHARACTER.test(key)) return pathOf(step, key);
        if (typeof item === 'string') {
          if (CONTROL_CHARACTER.test(item)) return pathOf(step, key);
        } else if (isContainer(item)) nested.push({ value: item, parent: step, key });
      }
    }
    // Nested values go on the stack last first: they are walked in the input's order.
    for (let index = nested.length - 1; index >= 0; index--) stack.push(nested[index] as TStep);
  }
  return null;
}

/** The name of the field at a path, as validation errors name fields (`a.0.b`; `_` for the input itself). */
export const fieldName = (path: TInputPath) => (path.length > 0 ? path.join('.') : '_');
