import { useI18n } from '../../i18n';
import { ReasonField as KitReasonField } from '../../kit/ReasonField';
import { REVIEW_REASON_MAX, reviewReasonProblem } from './format';

/** The rejection reason of a review: at most 20 characters after trimming, with a live counter. */
export function ReasonField({
  value,
  onChange,
  showProblem,
}: {
  value: string;
  onChange: (value: string) => void;
  showProblem: boolean;
}) {
  const { t } = useI18n();
  return (
    <KitReasonField
      value={value}
      onChange={onChange}
      showProblem={showProblem}
      problem={reviewReasonProblem(value)}
      max={REVIEW_REASON_MAX}
      label={t('admin.kyc.reject.reason')}
      words={{
        required: t('admin.kyc.reject.required'),
        tooLong: t('admin.kyc.reject.tooLong', { max: REVIEW_REASON_MAX }),
        hint: t('admin.kyc.reject.hint'),
        counter: (count, max) => t('admin.kyc.reject.counter', { count, max }),
      }}
      testIds={{ input: 'kyc-reject-reason', problem: 'kyc-reject-problem', counter: 'kyc-reject-counter' }}
    />
  );
}

/** Line glyphs the file viewer needs beyond the shared icon set, on the same 24-unit grid. */
const GLYPHS = {
  zoomIn: (
    <>
      <circle cx="10.5" cy="10.5" r="6.5" />
      <path d="M15.5 15.5L21 21M8 10.5h5M10.5 8v5" />
    </>
  ),
  zoomOut: (
    <>
      <circle cx="10.5" cy="10.5" r="6.5" />
      <path d="M15.5 15.5L21 21M8 10.5h5" />
    </>
  ),
  fit: (
    <path d="M4 9V5a1 1 0 0 1 1-1h4M15 4h4a1 1 0 0 1 1 1v4M20 15v4a1 1 0 0 1-1 1h-4M9 20H5a1 1 0 0 1-1-1v-4" />
  ),
  rotateLeft: (
    <>
      <path d="M4.5 12a7.5 7.5 0 1 0 2.2-5.3L4.5 9" />
      <path d="M4.5 4.5V9H9" />
    </>
  ),
  rotateRight: (
    <>
      <path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3L19.5 9" />
      <path d="M19.5 4.5V9H15" />
    </>
  ),
  external: (
    <>
      <path d="M14 4h6v6M20 4l-9 9" />
      <path d="M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </>
  ),
  image: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="M21 16l-5-5-9 9" />
    </>
  ),
  video: (
    <>
      <rect x="3" y="6" width="13" height="12" rx="2" />
      <path d="M16 10l5-3v10l-5-3" />
    </>
  ),
} as const;

export function Glyph({ name, size = 16 }: { name: keyof typeof GLYPHS; size?: number }) {
  return (
    <svg
      className="bo-icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {GLYPHS[name]}
    </svg>
  );
}
