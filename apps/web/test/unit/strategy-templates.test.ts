import { describe, expect, it } from 'vitest';
import { checkStrategyDraft } from '../../src/features/strategies/strategy-form';
import { botPlan, movedBy, previewPlan } from '../../src/features/strategies/strategy-lines';
import {
  TEMPLATES,
  templateAnchor,
  templateDraft,
  templateRange,
} from '../../src/features/strategies/strategy-templates';

const t = (key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key;
const format = (value: string) => value;

/** The strategy home's templates and the lines a bot draws on its chart (docs/strategies.md). */
describe('strategy templates', () => {
  it('derive a grid range from today’s bid, rounded outwards onto the symbol’s digits', () => {
    expect(templateRange('1.08420', 5, 100)).toEqual({ lower: '1.07335', upper: '1.09505' });
    expect(templateRange('2341.56', 2, 200)).toEqual({ lower: '2294.72', upper: '2388.40' });
    // exact products are not rounded
    expect(templateRange('100.00', 2, 100)).toEqual({ lower: '99.00', upper: '101.00' });
  });

  it('centre a grid on the bid rounded to a power of ten of points, so a small move asks for no new backtest', () => {
    expect(templateAnchor('1.08420', 5)).toBe('1.08400');
    expect(templateAnchor('1.08449', 5)).toBe('1.08400');
    expect(templateAnchor('1.08450', 5)).toBe('1.08500');
    expect(templateAnchor('2341.56', 2)).toBe('2342.00');
    expect(templateAnchor('67321.50', 2)).toBe('67300.00');
    // a price too small for a step keeps its last digit
    expect(templateAnchor('0.00001', 5)).toBe('0.00001');
  });

  it('fill the form with requests the contract takes, in the reader’s locale', () => {
    for (const template of TEMPLATES) {
      const draft = templateDraft(
        template,
        { bid: template.kind === 'grid' ? '1.08420' : '2341.56', digits: template.kind === 'grid' ? 5 : 2 },
        'de-DE',
      );
      const checked = checkStrategyDraft(draft, 'de-DE');
      expect(checked.ok, template.id).toBe(true);
    }
    const neutral = templateDraft(TEMPLATES[1]!, { bid: '1.08420', digits: 5 }, 'de-DE');
    expect(neutral).toMatchObject({
      kind: 'grid',
      symbol: 'EURUSD',
      lowerPrice: '1,06232',
      upperPrice: '1,10568',
      grids: '20',
      volumePerGrid: '0,02',
      gridDirection: 'neutral',
    });
    // without a price the range stays empty (the form fills it once the price comes)
    expect(templateDraft(TEMPLATES[0]!, null, 'en-US')).toMatchObject({ lowerPrice: '', upperPrice: '' });
  });

  it('have one conservative, neutral and aggressive template of each bot', () => {
    for (const kind of ['grid', 'martingale'] as const)
      expect(TEMPLATES.filter((x) => x.kind === kind).map((x) => x.risk)).toEqual([
        'conservative',
        'neutral',
        'aggressive',
      ]);
  });
});

describe('strategy chart lines', () => {
  it('moves a price by a percentage exactly, rounding away from it', () => {
    expect(movedBy('67050.00', '0.3', 2, true)).toBe('67251.15');
    expect(movedBy('1.08430', '0.3', 5, true)).toBe('1.08756');
    expect(movedBy('1.08430', '0.5', 5, false)).toBe('1.07887');
  });

  it('draws a grid preview: the edges labelled, the levels between, exits and the worst case', () => {
    const plan = previewPlan({
      spec: {
        kind: 'grid',
        params: {
          symbol: 'BTCUSDT',
          direction: 'long',
          lowerPrice: '66000',
          upperPrice: '67000',
          grids: 2,
          spacing: 'arithmetic',
          volumePerGrid: '0.01',
          takeProfitPrice: '68000',
          triggerPrice: '66800',
        },
      },
      levels: ['66000.00', '66500.00', '67000.00'],
      worstCase: {
        maxMargin: '1',
        marginCallPrice: '60000.00',
        stopOutPrice: null,
        maxLoss: '1',
        walkedTo: '1',
        breachesMarginRules: false,
      },
      digits: 2,
      t,
      format,
    });
    expect(plan.lines.map((l) => [l.kind, l.price])).toEqual([
      ['edge', '66000.00'],
      ['level', '66500.00'],
      ['edge', '67000.00'],
      ['trigger', '66800'],
      ['takeProfit', '68000'],
      ['marginCall', '60000.00'],
    ]);
    expect(plan.legend.map((l) => l.kind)).toEqual(['edge', 'trigger', 'takeProfit', 'marginCall']);
    // before the server's answer the inputs' range is drawn
    const early = previewPlan({
      spec: {
        kind: 'grid',
        params: {
          symbol: 'X',
          direction: 'long',
          lowerPrice: '1',
          upperPrice: '2',
          grids: 4,
          spacing: 'arithmetic',
          volumePerGrid: '0.01',
        },
      },
      levels: null,
      worstCase: null,
      digits: 2,
      t,
      format,
    });
    expect(early.lines.map((l) => l.price)).toEqual(['1', '2']);
  });

  it('draws a running martingale round: its first order, adds, average and take-profit', () => {
    const plan = botPlan(
      {
        kind: 'martingale',
        state: 'running',
        levels: ['67050.00', '66714.75'],
        round: { number: 1, completed: 0, adds: 1, averagePrice: '66816.67', takeProfit: '67017.12' },
        params: {
          kind: 'martingale',
          params: {
            symbol: 'BTCUSDT',
            direction: 'long',
            firstVolume: '0.01',
            stepPercent: '0.5',
            multiplier: '2',
            maxAdds: 1,
            takeProfitPercent: '0.3',
            stopLossPercent: '2',
          },
        },
      } as never,
      t,
      format,
      2,
    );
    expect(plan.lines.map((l) => [l.kind, l.price])).toEqual([
      ['entry', '67050.00'],
      ['add', '66714.75'],
      ['average', '66816.67'],
      ['takeProfit', '67017.12'],
      ['stopLoss', '65709.00'],
    ]);
  });
});
