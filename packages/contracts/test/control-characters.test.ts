import { describe, expect, it } from 'vitest';
import { CONTROL_CHARACTER, fieldName, findControlCharacter } from '../src/control-characters';

const char = (code: number) => String.fromCharCode(code);
const FORBIDDEN = [
  ...Array.from({ length: 9 }, (_, i) => i), // U+0000–U+0008
  0x0b,
  0x0c,
  ...Array.from({ length: 0x20 - 0x0e }, (_, i) => 0x0e + i), // U+000E–U+001F
  0x7f,
];

describe('control characters', () => {
  it('refuses each C0 control but tab, line feed and carriage return, and DEL', () => {
    for (let code = 0; code <= 0xff; code++) {
      const refused = CONTROL_CHARACTER.test(`a${char(code)}b`);
      expect(refused, `U+${code.toString(16).padStart(4, '0')}`).toBe(FORBIDDEN.includes(code));
    }
  });

  it('draws the boundaries of each forbidden range exactly', () => {
    const at = (code: number) => findControlCharacter(`x${char(code)}`);
    expect(at(0x00)).toEqual([]);
    expect(at(0x08)).toEqual([]);
    expect(at(0x09)).toBeNull(); // tab
    expect(at(0x0a)).toBeNull(); // line feed
    expect(at(0x0b)).toEqual([]);
    expect(at(0x0c)).toEqual([]);
    expect(at(0x0d)).toBeNull(); // carriage return
    expect(at(0x0e)).toEqual([]);
    expect(at(0x1f)).toEqual([]);
    expect(at(0x20)).toBeNull(); // space
    expect(at(0x7e)).toBeNull(); // ~
    expect(at(0x7f)).toEqual([]);
    expect(at(0x80)).toBeNull(); // C1 controls are not refused
    expect(at(0x85)).toBeNull();
  });

  it('lets multi-line text, other scripts and emoji through', () => {
    expect(
      findControlCharacter({ feedback: 'line one\r\n\tline two\n', nick: '张三 🙂', x: 'é' }),
    ).toBeNull();
  });

  it('passes values that hold no string', () => {
    for (const value of [undefined, null, 0, 1.5, true, false, [], {}, [1, [2, [null]]], { a: { b: 3 } }])
      expect(findControlCharacter(value)).toBeNull();
  });

  it('names the path of a string in nested objects and arrays', () => {
    expect(findControlCharacter({ name: 'a\u0000' })).toEqual(['name']);
    expect(findControlCharacter({ a: { b: { c: 'ok', d: '\u001b[31m' } } })).toEqual(['a', 'b', 'd']);
    expect(findControlCharacter({ list: ['ok', 'ok', 'no\u0007'] })).toEqual(['list', 2]);
    expect(findControlCharacter({ rows: [{ id: 1 }, { id: 2, notes: ['', { text: '\u007f' }] }] })).toEqual([
      'rows',
      1,
      'notes',
      1,
      'text',
    ]);
    expect(findControlCharacter(['\u0000'])).toEqual([0]);
    expect(findControlCharacter('\u0000')).toEqual([]);
  });

  it('checks object keys too', () => {
    expect(findControlCharacter({ settings: { 'a\u0000': 'x' } })).toEqual(['settings', 'a\u0000']);
  });

  it('walks the input in order and reports the first field of a level', () => {
    expect(findControlCharacter({ a: '\u0001', b: '\u0002' })).toEqual(['a']);
    expect(findControlCharacter({ a: { x: '\u0001' }, b: { y: '\u0002' } })).toEqual(['a', 'x']);
  });

  it('walks a very deep input without overflowing the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const path = findControlCharacter(deep);
    expect(path).toEqual(Array.from({ length: 200_000 }, () => 0));
  });

  it('names fields as validation errors do', () => {
    expect(fieldName(['rows', 1, 'text'])).toBe('rows.1.text');
    expect(fieldName(['Hostspecific'])).toBe('Hostspecific');
    expect(fieldName([])).toBe('_');
  });
});
