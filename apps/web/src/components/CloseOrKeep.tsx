/**
 * What happens to the positions when something that holds them stops (a copy, a bot): closed at the
 * market now, or kept open. The feature names both choices; the radios carry `stop-close` and
 * `stop-keep` test ids.
 */
export function CloseOrKeep({
  legend,
  name,
  closePositions,
  onChange,
  close,
  keep,
}: {
  legend: string;
  name: string;
  closePositions: boolean;
  onChange(closePositions: boolean): void;
  close: { title: string; hint: string };
  keep: { title: string; hint: string };
}) {
  return (
    <fieldset className="ui-choices">
      <legend className="sr-only">{legend}</legend>
      {[
        { value: true, text: close, testId: 'stop-close' },
        { value: false, text: keep, testId: 'stop-keep' },
      ].map((choice) => (
        <label key={choice.testId} className="ui-check">
          <input
            type="radio"
            name={name}
            checked={closePositions === choice.value}
            onChange={() => onChange(choice.value)}
            data-testid={choice.testId}
          />
          <span>
            <strong>{choice.text.title}</strong>
            <span className="ui-hint">{choice.text.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
