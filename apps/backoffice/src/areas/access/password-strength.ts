/** Passwords people pick first; any of them inside a password makes it weak. */
const COMMON = [
  'password',
  'passw0rd',
  'qwerty',
  'letmein',
  'welcome',
  'admin',
  'abc123',
  '123456',
  '111111',
  'iloveyou',
  'monkey',
  'dragon',
  'trading',
  'broker',
];

export type TStrength = 0 | 1 | 2 | 3 | 4;

/**
 * A simple entropy estimate (no dictionary library): length times the bits of the character
 * classes used, less for repeats, runs such as "abcd" or "4321", and common passwords. Advice for
 * the strength meter only; the server enforces the broker's minimum length.
 */
export function passwordEntropy(password: string): number {
  if (!password) return 0;
  const chars = [...password];
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/\d/.test(password)) pool += 10;
  if (/[!-/:-@[-`{-~]/.test(password)) pool += 33;
  if (chars.some((c) => (c.codePointAt(0) ?? 0) > 127)) pool += 100;
  if (/\s/.test(password)) pool += 1;
  const bitsPerChar = Math.log2(Math.max(pool, 2));
  let effective = 0;
  for (let i = 0; i < chars.length; i++) {
    const code = chars[i]?.codePointAt(0) ?? 0;
    const previous = i > 0 ? (chars[i - 1]?.codePointAt(0) ?? 0) : Number.NaN;
    const beforeThat = i > 1 ? (chars[i - 2]?.codePointAt(0) ?? 0) : Number.NaN;
    const repeat = code === previous;
    const run = code - previous === previous - beforeThat && Math.abs(code - previous) === 1;
    effective += repeat || run ? 0.25 : 1;
  }
  let bits = effective * bitsPerChar;
  const lower = password.toLowerCase();
  if (COMMON.some((word) => lower.includes(word))) bits = Math.min(bits, 20);
  // Many uses of few characters: the estimate cannot exceed what the distinct characters give.
  const distinct = new Set(chars).size;
  bits = Math.min(bits, distinct * bitsPerChar * 1.5);
  return Math.round(bits);
}

/** 0 very weak, 1 weak, 2 fair, 3 strong, 4 very strong. */
export function passwordStrength(password: string): TStrength {
  const bits = passwordEntropy(password);
  if (bits < 28) return 0;
  if (bits < 40) return 1;
  if (bits < 60) return 2;
  if (bits < 80) return 3;
  return 4;
}
