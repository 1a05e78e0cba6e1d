import { useRef, useState, type CSSProperties, type PointerEvent } from 'react';
import { Box } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TemplateLayout, TemplatePlaceholder } from '@flashbulb/shared';
import { movePlaceholder, resizePlaceholder } from '../utils/template-geometry.ts';

export interface TemplateImageUrls {
  readonly background_image: string | null;
  readonly overlay_image: string | null;
}

interface Drag {
  readonly index: number;
  readonly mode: 'move' | 'resize';
  readonly startX: number;
  readonly startY: number;
  readonly start: TemplatePlaceholder;
  readonly width: number;
  readonly height: number;
}

const pct = (value: number) => `${value * 100}%`;

/** The background and overlay images cover the whole sheet, as the renderer draws them. */
const WHOLE_SHEET: CSSProperties = {
  position: 'absolute',
  inset: 0,
  width: '100%',
  height: '100%',
  objectFit: 'cover',
};

/**
 * The sheet drawn to scale: background image, placeholders (numbered, turned by their rotation),
 * overlay image, texts — the order the renderer composes them. Editable: drag a placeholder to
 * move it, drag its corner handle to resize it.
 */
export function SheetCanvas({
  layout,
  imageUrls,
  maxWidth,
  selected = null,
  onSelect,
  onChange,
}: {
  layout: TemplateLayout;
  imageUrls: TemplateImageUrls;
  maxWidth: number;
  selected?: number | null;
  onSelect?: (index: number) => void;
  onChange?: (index: number, placeholder: TemplatePlaceholder) => void;
}) {
  const { t } = useTranslation();
  const sheetRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const editable = onChange !== undefined;
  const aspect = layout.width / layout.height;
  // Portrait sheets are limited by a height of 1.2 × the width budget.
  const width = Math.min(maxWidth, maxWidth * 1.2 * aspect);
  const height = width / aspect;

  const begin = (event: PointerEvent<HTMLElement>, index: number, mode: Drag['mode']) => {
    if (!editable || !sheetRef.current) return;
    event.stopPropagation();
    event.preventDefault();
    const rect = sheetRef.current.getBoundingClientRect();
    event.currentTarget.setPointerCapture(event.pointerId);
    onSelect?.(index);
    setDrag({
      index,
      mode,
      startX: event.clientX,
      startY: event.clientY,
      start: layout.placeholders[index]!,
      width: rect.width,
      height: rect.height,
    });
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    if (!drag || !onChange) return;
    const dx = (event.clientX - drag.startX) / drag.width;
    const dy = (event.clientY - drag.startY) / drag.height;
    onChange(
      drag.index,
      drag.mode === 'move'
        ? movePlaceholder(drag.start, dx, dy)
        : resizePlaceholder(drag.start, dx, dy),
    );
  };
  const end = () => setDrag(null);
  /** A placeholder moves, its corner handle resizes: each drags from its own pointer-down. */
  const dragHandlers = (index: number, mode: Drag['mode']) => ({
    onPointerDown: (e: PointerEvent<HTMLElement>) => begin(e, index, mode),
    onPointerMove: move,
    onPointerUp: end,
    onPointerCancel: end,
  });

  return (
    <Box
      ref={sheetRef}
      data-testid="template-sheet"
      role="img"
      aria-label={t('templates.sheetLabel', {
        width: String(layout.width),
        height: String(layout.height),
        unit: layout.unit,
        n: String(layout.placeholders.length),
      })}
      style={{
        position: 'relative',
        width,
        height,
        background: '#fff',
        boxShadow: '0 1px 6px rgba(0,0,0,0.25)',
        overflow: 'hidden',
        touchAction: 'none',
        userSelect: 'none',
      }}
    >
      {imageUrls.background_image ? (
        <img src={imageUrls.background_image} alt="" style={WHOLE_SHEET} />
      ) : null}
      {layout.placeholders.map((p, index) => (
        <Box
          key={index}
          data-testid={`placeholder-${index + 1}`}
          aria-label={t('templates.placeholderLabel', { n: String(index + 1) })}
          {...dragHandlers(index, 'move')}
          style={{
            position: 'absolute',
            left: pct(p.x),
            top: pct(p.y),
            width: pct(p.width),
            height: pct(p.height),
            transform: p.rotation ? `rotate(${p.rotation}deg)` : undefined,
            background: 'rgba(120,140,170,0.55)',
            outline: selected === index ? '2px solid #1c7ed6' : '1px dashed #44546a',
            cursor: editable ? 'move' : 'default',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: '#fff',
            fontWeight: 700,
            fontSize: Math.max(12, Math.min(40, height * p.height * 0.3)),
          }}
        >
          {index + 1}
          {editable ? (
            <Box
              data-testid={`resize-${index + 1}`}
              aria-label={t('templates.resizeLabel', { n: String(index + 1) })}
              {...dragHandlers(index, 'resize')}
              style={{
                position: 'absolute',
                // Inside the corner: a placeholder at the sheet's edge keeps a whole handle (the
                // sheet clips what sticks out).
                right: 0,
                bottom: 0,
                width: 14,
                height: 14,
                background: '#1c7ed6',
                border: '2px solid #fff',
                borderRadius: 3,
                cursor: 'nwse-resize',
              }}
            />
          ) : null}
        </Box>
      ))}
      {imageUrls.overlay_image ? (
        <img
          src={imageUrls.overlay_image}
          alt=""
          style={{ ...WHOLE_SHEET, pointerEvents: 'none' }}
        />
      ) : null}
      {layout.texts.map((text, index) => (
        <span
          key={index}
          style={{
            position: 'absolute',
            left: pct(text.x),
            top: height * text.y - height * text.size,
            fontSize: height * text.size,
            lineHeight: 1,
            color: text.color,
            whiteSpace: 'nowrap',
            pointerEvents: 'none',
            fontFamily: 'DejaVu Sans, Liberation Sans, sans-serif',
          }}
        >
          {/* An empty slot shows what fills it: the event's print header or footer. */}
          {text.text || (text.slot ? t(`templates.slotSample.${text.slot}`) : '')}
        </span>
      ))}
    </Box>
  );
}
