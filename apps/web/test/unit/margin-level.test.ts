import { describe, expect, it } from 'vitest';
import { marginLevelText } from '../../src/lib/margin-level';

describe('margin level as traders read it', () => {
  it('shows the API ratio (spec 5) as a percentage with two decimals', () => {
    expect(marginLevelText('en', '20.4471')).toBe('2,044.71%');
    expect(marginLevelText('en', '1.0000')).toBe('100.00%');
    expect(marginLevelText('en', '0.5000')).toBe('50.00%');
    expect(marginLevelText('de', '20.4471')).toBe('2.044,71\u00a0%');
  });

  it('keeps every digit of a long ratio (no floating point) and passes other text through', () => {
    expect(marginLevelText('en', '123456789.1234')).toBe('12,345,678,912.34%');
    expect(marginLevelText('en', '—')).toBe('—');
  });
});
