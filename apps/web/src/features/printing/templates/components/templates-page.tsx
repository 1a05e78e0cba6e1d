import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { layoutPixels, type PptDetail, type User } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useTemplate } from '../api/templates-api.ts';
import { SheetCanvas } from './sheet-canvas.tsx';
import { TemplateEditor } from './template-editor.tsx';

/**
 * The template page (albums spec §2.6): `templates/?watermark=1` makes a watermark
 * template, `templates/` a print template, `templates/?tid={id}` edits one and
 * `templates/?tid={id}&mode=preview` shows it. Public templates are offered to super users only;
 * the server enforces the same.
 */
export default function TemplatesPage({ user }: { user: User }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const tidParam = Number(params.get('tid'));
  const tid = Number.isInteger(tidParam) && tidParam > 0 ? tidParam : null;
  const existing = useTemplate(tid);
  const errorText = useErrorText();

  if (tid !== null && existing.isPending) return <Loader aria-label={t('app.loading')} />;
  if (tid !== null && existing.isError)
    return (
      <Alert color="red" role="alert">
        {errorText(errorKeyOf(existing.error))}
      </Alert>
    );
  const detail = existing.data ?? null;
  if (params.get('mode') === 'preview' && detail) return <TemplatePreview detail={detail} />;
  return (
    <TemplateEditor
      key={detail?.id ?? 'new'}
      user={user}
      detail={detail}
      watermark={detail ? detail.is_watermark : params.get('watermark') === '1'}
    />
  );
}

function TemplatePreview({ detail }: { detail: PptDetail }) {
  const { t } = useTranslation();
  const px = layoutPixels(detail.layout);
  return (
    <Stack gap="md" align="flex-start">
      <Title order={2}>{t('templates.previewTitle', { name: detail.name })}</Title>
      <Text c="dimmed" size="sm">
        {t('templates.sheetSummary', {
          width: String(detail.layout.width),
          height: String(detail.layout.height),
          unit: detail.layout.unit,
          dpi: String(detail.layout.dpi),
          px: `${px.width} × ${px.height}`,
          n: String(detail.layout.placeholders.length),
        })}
      </Text>
      <SheetCanvas layout={detail.layout} imageUrls={detail.image_urls} maxWidth={720} />
    </Stack>
  );
}
