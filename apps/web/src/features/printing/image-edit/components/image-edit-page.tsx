// Over ~350 lines on purpose: one editor whose tools (turn, crop, brightness, undo, save) all
// change one edit state with its history; the geometry is in utils/.
import { useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Group,
  Loader,
  Progress,
  SegmentedControl,
  Slider,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { Photo } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { albumPathFor } from '../../../../lib/album-path.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { saveEditedPhoto, useEditTarget, type SaveStep } from '../api/image-edit-api.ts';
import {
  ASPECT_PRESETS,
  aspectRatioOf,
  fullRect,
  nextRotation,
  outputSize,
  presetCrop,
  rectFromDrag,
  rotateRectClockwise,
  rotatedSize,
  type AspectPreset,
  type Point,
  type Rect,
  type Size,
} from '../utils/edit-geometry.ts';
import { renderEdit, toJpeg, type EditState } from '../utils/render-edit.ts';

const STEPS: readonly SaveStep[] = ['grant', 'upload', 'complete', 'curate'];

type SaveState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'saving'; readonly step: SaveStep }
  | { readonly phase: 'saved'; readonly edited: Photo }
  | { readonly phase: 'failed'; readonly key: string };

/** The tone sliders, each −100…100, in the order shown. */
const TONE_SLIDERS = ['brightness', 'contrast'] as const;
type ToneSlider = (typeof TONE_SLIDERS)[number];

const initialState = (size: Size): EditState => ({
  rotation: 0,
  crop: fullRect(size),
  aspect: 'free',
  brightness: 0,
  contrast: 0,
});

/**
 * The image editor (`/imageEdit/index.html?event=<code>&photo=<id>`): turn, crop, brightness and
 * contrast on the photo's preview, with a live preview; saving uploads a new photo and marks the
 * original curated, which itself stays as it was.
 */
export default function ImageEditPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const eventCode = params.get('event') ?? '';
  const photoParam = Number(params.get('photo'));
  const photoId = Number.isInteger(photoParam) && photoParam > 0 ? photoParam : null;
  const target = useEditTarget(eventCode, photoId);

  const imageRef = useRef<HTMLImageElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [natural, setNatural] = useState<Size | null>(null);
  const [state, setState] = useState<EditState | null>(null);
  const [history, setHistory] = useState<EditState[]>([]);
  const sliderStart = useRef<EditState | null>(null);
  const drag = useRef<Point | null>(null);
  const [save, setSave] = useState<SaveState>({ phase: 'idle' });

  const bounds = useMemo(
    () => (natural && state ? rotatedSize(natural, state.rotation) : null),
    [natural, state],
  );

  const commit = (next: (current: EditState) => EditState) => {
    if (!state) return;
    setHistory((past) => [...past, state]);
    setState(next(state));
  };
  const rotate = () =>
    commit((current) => {
      if (!natural) return current;
      const size = rotatedSize(natural, current.rotation);
      return {
        ...current,
        rotation: nextRotation(current.rotation),
        crop: rotateRectClockwise(current.crop, size),
        // The ratio is of the turned picture: a 4:3 crop is now 3:4, so the crop goes free.
        aspect: current.aspect === '1:1' ? '1:1' : 'free',
      };
    });
  const resetCrop = () =>
    commit((current) => ({
      ...current,
      aspect: 'free',
      crop: fullRect(natural ? rotatedSize(natural, current.rotation) : current.crop),
    }));
  const choosePreset = (preset: AspectPreset) =>
    commit((current) => ({
      ...current,
      aspect: preset,
      crop: presetCrop(preset, natural ? rotatedSize(natural, current.rotation) : current.crop),
    }));
  const undo = () => {
    const previous = history.at(-1);
    if (!previous) return;
    setHistory((past) => past.slice(0, -1));
    setState(previous);
  };
  const slide = (name: ToneSlider, value: number) => {
    if (!state) return;
    sliderStart.current ??= state;
    setState({ ...state, [name]: value });
  };
  const slideEnd = () => {
    const start = sliderStart.current;
    sliderStart.current = null;
    if (start) setHistory((past) => [...past, start]);
  };

  // Keys: R turns, Ctrl/Cmd+Z undoes, Escape resets the crop.
  const keys = useRef({ rotate, undo, resetCrop });
  useEffect(() => {
    keys.current = { rotate, undo, resetCrop };
  });
  const ready = state !== null;
  useEffect(() => {
    if (!ready) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return;
      const element = event.target as HTMLElement | null;
      // Typing stays typing; choice inputs (the ratio radios) let the keys through.
      const typing =
        element?.tagName === 'TEXTAREA' ||
        (element instanceof HTMLInputElement && !['radio', 'checkbox'].includes(element.type));
      if (typing) return;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        keys.current.undo();
      } else if (!event.ctrlKey && !event.metaKey && event.key.toLowerCase() === 'r') {
        event.preventDefault();
        keys.current.rotate();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        keys.current.resetCrop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [ready]);

  // The live preview: the whole turned, adjusted picture; the crop is drawn over it.
  useEffect(() => {
    const image = imageRef.current;
    const canvas = canvasRef.current;
    if (!image || !canvas || !natural || !state) return;
    renderEdit(canvas, image, natural, {
      ...state,
      crop: fullRect(rotatedSize(natural, state.rotation)),
    });
  }, [natural, state]);

  const toPicture = (event: PointerEvent<HTMLElement>): Point | null => {
    const box = event.currentTarget.getBoundingClientRect();
    if (!bounds || box.width === 0 || box.height === 0) return null;
    return {
      x: ((event.clientX - box.left) / box.width) * bounds.width,
      y: ((event.clientY - box.top) / box.height) * bounds.height,
    };
  };
  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    const point = toPicture(event);
    if (!point || !state) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = point;
    setHistory((past) => [...past, state]);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const start = drag.current;
    const point = toPicture(event);
    if (!start || !point || !bounds || !state) return;
    const crop = rectFromDrag(start, point, aspectRatioOf(state.aspect), bounds);
    if (crop.width >= 2 && crop.height >= 2) setState({ ...state, crop });
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  const onSave = async () => {
    const image = imageRef.current;
    if (!target.data || !image || !natural || !state) return;
    setSave({ phase: 'saving', step: 'grant' });
    try {
      const canvas = document.createElement('canvas');
      renderEdit(canvas, image, natural, state);
      const jpeg = await toJpeg(canvas);
      const { edited } = await saveEditedPhoto(target.data, jpeg, (step) =>
        setSave({ phase: 'saving', step }),
      );
      setSave({ phase: 'saved', edited });
    } catch (error) {
      console.error('image edit save failed', error);
      setSave({ phase: 'failed', key: errorKeyOf(error) });
    }
  };

  const albumLink = (
    <Anchor component={Link} to={albumPathFor(eventCode)}>
      {t('imageEdit.backToAlbum')}
    </Anchor>
  );

  if (photoId === null || eventCode === '')
    return (
      <Stack>
        <Alert color="red">{errorText('not_found')}</Alert>
      </Stack>
    );
  if (target.isPending) return <Loader aria-label={t('imageEdit.loading')} />;
  if (target.isError)
    return (
      <Stack>
        <Alert color="red" title={t('imageEdit.loadError')}>
          {errorText(errorKeyOf(target.error))}
        </Alert>
        {albumLink}
      </Stack>
    );

  const { photo } = target.data;
  const source = photo.urls.preview;
  const saving = save.phase === 'saving';
  const size = state ? outputSize(state.crop) : null;
  const cropStyle = (crop: Rect) =>
    bounds
      ? {
          left: `${(crop.x / bounds.width) * 100}%`,
          top: `${(crop.y / bounds.height) * 100}%`,
          width: `${(crop.width / bounds.width) * 100}%`,
          height: `${(crop.height / bounds.height) * 100}%`,
        }
      : {};

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('imageEdit.title', { name: photo.file_name })}</Title>
        {albumLink}
      </Group>
      {!source || photo.media_type !== 'image' || photo.status !== 'ready' ? (
        <Alert color="yellow">{t('imageEdit.notEditable')}</Alert>
      ) : (
        <>
          <img
            ref={imageRef}
            src={source}
            crossOrigin="anonymous"
            alt=""
            hidden
            onLoad={(event) => {
              const { naturalWidth: width, naturalHeight: height } = event.currentTarget;
              if (width > 0 && height > 0 && !state) {
                setNatural({ width, height });
                setState(initialState({ width, height }));
              }
            }}
          />
          {!state || !bounds ? (
            <Loader aria-label={t('imageEdit.loading')} />
          ) : (
            <>
              <Group gap="sm" wrap="wrap">
                <Button variant="default" onClick={rotate} disabled={saving}>
                  {t('imageEdit.rotate')}
                </Button>
                <Button variant="default" onClick={undo} disabled={saving || history.length === 0}>
                  {t('imageEdit.undo')}
                </Button>
                <Button variant="default" onClick={resetCrop} disabled={saving}>
                  {t('imageEdit.resetCrop')}
                </Button>
                <SegmentedControl
                  aria-label={t('imageEdit.aspect')}
                  value={state.aspect}
                  disabled={saving}
                  onChange={(value) => choosePreset(value as AspectPreset)}
                  data={ASPECT_PRESETS.map((preset) => ({
                    value: preset,
                    label: t(`imageEdit.presets.${preset}`),
                  }))}
                />
              </Group>
              <Group grow align="flex-start">
                {TONE_SLIDERS.map((name) => (
                  <Stack gap={4} key={name}>
                    <Text size="sm" id={`image-edit-${name}`}>
                      {t(`imageEdit.${name}`)}
                    </Text>
                    <Slider
                      aria-labelledby={`image-edit-${name}`}
                      thumbLabel={t(`imageEdit.${name}`)}
                      min={-100}
                      max={100}
                      value={state[name]}
                      disabled={saving}
                      onChange={(value) => slide(name, value)}
                      onChangeEnd={slideEnd}
                    />
                  </Stack>
                ))}
              </Group>
              <Text size="sm" c="dimmed" data-testid="image-edit-summary">
                {t('imageEdit.summary', {
                  rotation: state.rotation,
                  width: size?.width,
                  height: size?.height,
                })}
              </Text>
              <Box
                role="group"
                aria-label={t('imageEdit.cropArea')}
                pos="relative"
                style={{
                  maxWidth: '100%',
                  width: `min(100%, ${(bounds.width / bounds.height) * 70}vh)`,
                  aspectRatio: `${bounds.width} / ${bounds.height}`,
                  touchAction: 'none',
                  cursor: 'crosshair',
                  userSelect: 'none',
                }}
                onPointerDown={onPointerDown}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerUp}
              >
                <canvas
                  ref={canvasRef}
                  aria-label={t('imageEdit.preview')}
                  role="img"
                  style={{ width: '100%', height: '100%', display: 'block' }}
                />
                <Box
                  pos="absolute"
                  style={{
                    ...cropStyle(state.crop),
                    outline: '2px solid white',
                    boxShadow: '0 0 0 9999px rgba(0, 0, 0, 0.5)',
                    pointerEvents: 'none',
                  }}
                />
              </Box>
              <Group>
                <Button onClick={() => void onSave()} loading={saving}>
                  {t('imageEdit.save')}
                </Button>
              </Group>
              {save.phase === 'saving' && (
                <Stack gap={4}>
                  <Progress
                    aria-label={t('imageEdit.progress')}
                    value={((STEPS.indexOf(save.step) + 1) / (STEPS.length + 1)) * 100}
                  />
                  <Text size="sm">{t(`imageEdit.steps.${save.step}`)}</Text>
                </Stack>
              )}
              {save.phase === 'saved' && (
                <Alert color="green" title={t('imageEdit.saved')}>
                  <Stack gap={4}>
                    <Text size="sm">
                      {t('imageEdit.savedDetail', { name: save.edited.file_name })}
                    </Text>
                    {albumLink}
                  </Stack>
                </Alert>
              )}
              {save.phase === 'failed' && (
                <Alert color="red" title={t('imageEdit.saveError')}>
                  {errorText(save.key)}
                </Alert>
              )}
            </>
          )}
        </>
      )}
    </Stack>
  );
}
