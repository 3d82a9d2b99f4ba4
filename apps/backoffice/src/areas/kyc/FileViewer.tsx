import {
  type KeyboardEvent,
  type PointerEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useI18n } from '../../i18n';
import { FILE_ROLE_LABELS, type TKycFile, useKycFormat } from './format';
import { Glyph } from './ui';
import { fitScale, imageBox, MAX_ZOOM, MIN_ZOOM, nextZoom } from './viewer-geometry';

/** The submission's files in tabs, each shown in place: pictures with zoom and rotation, videos in a player. */
export function FileViewer({ files }: { files: readonly TKycFile[] }) {
  const { t } = useI18n();
  const format = useKycFormat();
  const [index, setIndex] = useState(0);
  const tabsId = useId();
  const current = files[Math.min(index, files.length - 1)];
  if (!current) return <p className="ky-muted">{t('admin.kyc.files.none')}</p>;
  const tabId = (n: number) => `${tabsId}-tab-${n}`;
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = (index + step + files.length) % files.length;
    setIndex(next);
    document.getElementById(tabId(next))?.focus();
  };
  return (
    <div className="ky-viewer" data-testid="kyc-viewer">
      <div className="ky-file-tabs" role="tablist" aria-label={t('admin.kyc.files.title')}>
        {files.map((file, n) => (
          <button
            key={`${file.role}-${file.url}`}
            id={tabId(n)}
            type="button"
            role="tab"
            aria-selected={n === index}
            aria-controls={`${tabsId}-panel`}
            tabIndex={n === index ? 0 : -1}
            className="ky-file-tab"
            onClick={() => setIndex(n)}
            onKeyDown={onTabKey}
            data-testid="kyc-file-tab"
            data-role={file.role}
          >
            <Glyph name={file.mime.startsWith('video/') ? 'video' : 'image'} size={15} />
            {t(FILE_ROLE_LABELS[file.role])}
          </button>
        ))}
      </div>
      <div
        id={`${tabsId}-panel`}
        role="tabpanel"
        aria-labelledby={tabId(index)}
        className="ky-file-panel"
        data-testid="kyc-file-panel"
      >
        {current.mime.startsWith('video/') ? (
          <VideoView key={current.url} file={current} />
        ) : current.mime.startsWith('image/') ? (
          <ImageView key={current.url} file={current} label={t(FILE_ROLE_LABELS[current.role])} />
        ) : (
          <p className="ky-file-fallback">
            {t('admin.kyc.files.unknown', { type: current.mime })}{' '}
            <a href={current.url} target="_blank" rel="noreferrer">
              {t('admin.kyc.files.open')}
            </a>
          </p>
        )}
        <div className="ky-file-meta">
          <span>{current.mime}</span>
          <span>{format.bytes(current.bytes)}</span>
          <a href={current.url} target="_blank" rel="noreferrer" className="ky-file-link">
            <Glyph name="external" size={14} />
            {t('admin.kyc.files.open')}
          </a>
        </div>
      </div>
    </div>
  );
}

function ImageView({ file, label }: { file: TKycFile; label: string }) {
  const { t, formatNumber } = useI18n();
  const stage = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [stageSize, setStageSize] = useState({ width: 0, height: 0 });
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const [failed, setFailed] = useState(false);
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);

  useLayoutEffect(() => {
    const element = stage.current;
    if (!element) return;
    const measure = () =>
      setStageSize({ width: element.clientWidth - 24, height: element.clientHeight - 24 });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const scale = natural ? fitScale(natural, rotation, stageSize) * zoom : 1;
  const geometry = natural ? imageBox(natural, rotation, scale) : null;
  const zoomBy = (direction: 1 | -1) => setZoom((z) => nextZoom(z, direction));
  const rotate = (degrees: number) => setRotation((r) => (r + degrees + 360) % 360);

  // Keep the middle of the picture in view when the zoom changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the zoom or rotation changes
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    element.scrollLeft = (element.scrollWidth - element.clientWidth) / 2;
    element.scrollTop = (element.scrollHeight - element.clientHeight) / 2;
  }, [zoom, rotation]);

  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target instanceof HTMLElement && event.target.tagName === 'INPUT') return;
    if (event.key === '+' || event.key === '=') zoomBy(1);
    else if (event.key === '-') zoomBy(-1);
    else if (event.key === '0') setZoom(1);
    else if (event.key === 'r' || event.key === 'R') rotate(event.shiftKey ? -90 : 90);
    else return;
    event.preventDefault();
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const element = stage.current;
    if (!element || event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY, left: element.scrollLeft, top: element.scrollTop };
    element.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const element = stage.current;
    if (!element || !drag.current) return;
    element.scrollLeft = drag.current.left - (event.clientX - drag.current.x);
    element.scrollTop = drag.current.top - (event.clientY - drag.current.y);
  };
  const endDrag = () => {
    drag.current = null;
  };

  return (
    <div className="ky-image">
      <div
        className="ky-toolbar"
        role="toolbar"
        aria-label={t('admin.kyc.viewer.tools', { file: label })}
        onKeyDown={onKey}
      >
        <button
          type="button"
          className="bo-iconbtn"
          onClick={() => zoomBy(-1)}
          disabled={zoom <= MIN_ZOOM}
          aria-label={t('admin.kyc.viewer.zoomOut')}
          title={t('admin.kyc.viewer.zoomOut')}
          data-testid="kyc-zoom-out"
        >
          <Glyph name="zoomOut" />
        </button>
        <output className="ky-zoom" aria-live="polite" data-testid="kyc-zoom">
          {formatNumber(Math.round(scale * 100))} %
        </output>
        <button
          type="button"
          className="bo-iconbtn"
          onClick={() => zoomBy(1)}
          disabled={zoom >= MAX_ZOOM}
          aria-label={t('admin.kyc.viewer.zoomIn')}
          title={t('admin.kyc.viewer.zoomIn')}
          data-testid="kyc-zoom-in"
        >
          <Glyph name="zoomIn" />
        </button>
        <button
          type="button"
          className="bo-iconbtn"
          onClick={() => setZoom(1)}
          aria-label={t('admin.kyc.viewer.fit')}
          title={t('admin.kyc.viewer.fit')}
        >
          <Glyph name="fit" />
        </button>
        <span className="ky-toolbar-sep" aria-hidden="true" />
        <button
          type="button"
          className="bo-iconbtn"
          onClick={() => rotate(-90)}
          aria-label={t('admin.kyc.viewer.rotateLeft')}
          title={t('admin.kyc.viewer.rotateLeft')}
        >
          <Glyph name="rotateLeft" />
        </button>
        <button
          type="button"
          className="bo-iconbtn"
          onClick={() => rotate(90)}
          aria-label={t('admin.kyc.viewer.rotateRight')}
          title={t('admin.kyc.viewer.rotateRight')}
          data-testid="kyc-rotate"
        >
          <Glyph name="rotateRight" />
        </button>
      </div>
      <div
        ref={stage}
        className={`ky-stage${zoom > 1 ? ' ky-stage-pan' : ''}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus, so keyboards scroll a zoomed picture
        tabIndex={0}
        role="group"
        aria-label={t('admin.kyc.viewer.stage', { file: label, key: 'R' })}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        data-testid="kyc-stage"
      >
        {failed ? (
          <p className="ky-file-fallback" role="alert">
            {t('admin.kyc.files.failed')}
          </p>
        ) : (
          <div
            className="ky-image-box"
            style={geometry ? { width: geometry.box.width, height: geometry.box.height } : undefined}
          >
            <img
              src={file.url}
              alt={label}
              draggable={false}
              onLoad={(e) =>
                setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })
              }
              onError={() => setFailed(true)}
              style={
                geometry
                  ? {
                      width: geometry.image.width,
                      height: geometry.image.height,
                      transform: `translate(-50%, -50%) rotate(${rotation}deg)`,
                    }
                  : { visibility: 'hidden' }
              }
              data-rotation={rotation}
              data-testid="kyc-image"
            />
          </div>
        )}
      </div>
    </div>
  );
}

function VideoView({ file }: { file: TKycFile }) {
  const { t } = useI18n();
  // AVI is not played by browsers: say so and offer the file, rather than a player that never starts.
  const [playable, setPlayable] = useState(
    () => document.createElement('video').canPlayType(file.mime) !== '',
  );
  if (playable === false)
    return (
      <div className="ky-file-fallback" data-testid="kyc-video-fallback">
        <Glyph name="video" size={28} />
        <p>{t('admin.kyc.files.cannotPlay', { type: file.mime })}</p>
        <a href={file.url} download className="btn btn-secondary btn-sm">
          {t('admin.kyc.files.download')}
        </a>
      </div>
    );
  return (
    // biome-ignore lint/a11y/useMediaCaption: a customer's liveness recording has no captions
    <video
      className="ky-video"
      src={file.url}
      controls
      preload="metadata"
      playsInline
      onError={() => setPlayable(false)}
      data-testid="kyc-video"
    />
  );
}
