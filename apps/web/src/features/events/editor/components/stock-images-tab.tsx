import { useState } from 'react';
import { Button, Group, Image, Radio, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { StockImage } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useEventList } from '../api/events-api.ts';
import {
  makeStockThumbnail,
  otherEventStockImages,
  uploadStockFile,
} from '../api/stock-image-upload.ts';
import { useEditorContext } from '../hooks/editor-context.ts';
import type { EventFormValues } from '../utils/event-form-values.ts';
import { ActionError, FilePickButton } from './image-upload-button.tsx';
import { newChannelId } from '../utils/random-codes.ts';
import {
  FlagCheckbox,
  joinList,
  NullableTextField,
  splitListInput,
  TextField,
  usePathError,
} from './form-fields.tsx';

type PolicyKind = 'all' | 'inc' | 'exc';
type Policy = StockImage['policy'];

const kindOf = (policy: Policy): PolicyKind =>
  'inc' in policy ? 'inc' : 'exc' in policy ? 'exc' : 'all';
const tagsOf = (policy: Policy): string[] =>
  'inc' in policy ? policy.inc : 'exc' in policy ? policy.exc : [];
const policyOf = (kind: PolicyKind, tags: string[]): Policy =>
  kind === 'inc' ? { inc: tags } : kind === 'exc' ? { exc: tags } : {};

/** Albums spec §4: all (tag input disabled), include or exclude the tags. */
function TagPolicy({ index }: { index: number }) {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<EventFormValues>();
  const name = `opts.stockImages.${index}.policy` as const;
  const policy = useWatch({ control, name });
  const kind = kindOf(policy);
  const [text, setText] = useState(() => joinList(tagsOf(policy)));
  const error = usePathError(name);
  const write = (nextKind: PolicyKind, nextText: string) => {
    setValue(name, policyOf(nextKind, splitListInput(nextText)), { shouldDirty: true });
    error.clear();
  };
  return (
    <Stack gap={4}>
      <Radio.Group
        aria-label={t('events.stock.policyOf', { row: index + 1 })}
        value={kind}
        onChange={(value) => write(value as PolicyKind, text)}
      >
        <Group gap="xs">
          <Radio value="all" label={t('events.stock.policyAll')} />
          <Radio value="inc" label={t('events.stock.policyInclude')} />
          <Radio value="exc" label={t('events.stock.policyExclude')} />
        </Group>
      </Radio.Group>
      <TextInput
        aria-label={t('events.stock.tagsOf', { row: index + 1 })}
        placeholder={t('events.stock.tagsPlaceholder')}
        value={text}
        disabled={kind === 'all'}
        error={error.text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          write(kind, e.currentTarget.value);
        }}
      />
    </Stack>
  );
}

/**
 * Upload an image or thumbnail for a row (super users; albums spec §6). Needs the stored event: its
 * code and owner key ask for the upload grant.
 */
function StockUploadButton({ index, thumbnail }: { index: number; thumbnail: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { event } = useEditorContext();
  const { setValue, clearErrors } = useFormContext<EventFormValues>();
  const [busy, setBusy] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const row = index + 1;
  const label = thumbnail
    ? t('events.stock.uploadThumbnailOf', { row })
    : t('events.stock.uploadImageOf', { row });

  const upload = async (file: File | null) => {
    if (!file || !event) return;
    setBusy(true);
    setErrorKey(null);
    try {
      const uploaded = await uploadStockFile(event, file, thumbnail);
      const dirty = { shouldDirty: true } as const;
      const base = `opts.stockImages.${index}` as const;
      if (thumbnail) {
        setValue(`${base}.imgTmbUrl`, uploaded.url, dirty);
        setValue(`${base}.imgTmbSize`, uploaded.sizeKb, dirty);
        clearErrors(`${base}.imgTmbUrl`);
      } else {
        setValue(`${base}.imgUrl`, uploaded.url, dirty);
        setValue(`${base}.imgSize`, uploaded.sizeKb, dirty);
      }
    } catch (error) {
      setErrorKey(errorKeyOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FilePickButton
      accept="image/jpeg,image/png,video/mp4"
      label={label}
      size="compact-xs"
      busy={busy}
      disabled={!event}
      error={errorKey && errorText(errorKey)}
      onFile={(file) => void upload(file)}
    >
      {thumbnail ? t('events.stock.uploadThumbnail') : t('events.stock.uploadImage')}
    </FilePickButton>
  );
}

/**
 * The server makes the row's thumbnail from its uploaded image (albums spec §6): no second file to
 * prepare. A clip (mp4) has no picture to scale: its thumbnail is uploaded.
 */
function MakeThumbnailButton({ index }: { index: number }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { event } = useEditorContext();
  const { control, setValue, clearErrors } = useFormContext<EventFormValues>();
  const imageUrl = useWatch({ control, name: `opts.stockImages.${index}.imgUrl` });
  const [busy, setBusy] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const usable = Boolean(event) && imageUrl.trim() !== '' && !/\.mp4$/i.test(imageUrl.trim());
  const make = async () => {
    if (!event || !usable) return;
    setBusy(true);
    setErrorKey(null);
    try {
      const made = await makeStockThumbnail(event, imageUrl.trim());
      const base = `opts.stockImages.${index}` as const;
      setValue(`${base}.imgTmbUrl`, made.url, { shouldDirty: true });
      setValue(`${base}.imgTmbSize`, made.sizeKb, { shouldDirty: true });
      clearErrors(`${base}.imgTmbUrl`);
    } catch (error) {
      setErrorKey(errorKeyOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={2}>
      <Button
        size="compact-xs"
        variant="light"
        loading={busy}
        disabled={!usable}
        aria-label={t('events.stock.makeThumbnailOf', { row: index + 1 })}
        onClick={() => void make()}
      >
        {t('events.stock.makeThumbnail')}
      </Button>
      <ActionError text={errorKey && errorText(errorKey)} />
    </Stack>
  );
}

function StockImageRow({ index, onRemove }: { index: number; onRemove: () => void }) {
  const { t } = useTranslation();
  const { isSuper, event } = useEditorContext();
  const { control } = useFormContext<EventFormValues>();
  const image = useWatch({ control, name: `opts.stockImages.${index}` });
  const row = index + 1;
  return (
    <Table.Tr data-testid="stock-image-row">
      <Table.Td>
        {image.imgTmbUrl ? (
          <Image src={image.imgTmbUrl} alt={t('events.stock.thumbnailOf', { row })} w={64} />
        ) : (
          <Text c="red" size="sm">
            {t('events.stock.needThumbnail')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <TextField
            name={`opts.stockImages.${index}.imgUrl`}
            aria-label={t('events.stock.imageUrlOf', { row })}
            placeholder={t('events.stock.imageUrl')}
            disabled={!isSuper}
          />
          <TextField
            name={`opts.stockImages.${index}.imgTmbUrl`}
            aria-label={t('events.stock.thumbnailUrlOf', { row })}
            placeholder={t('events.stock.thumbnailUrl')}
            disabled={!isSuper}
          />
          <Text size="xs" c="dimmed">
            {t('events.stock.sizes', { image: image.imgSize, thumbnail: image.imgTmbSize })}
          </Text>
          {isSuper ? (
            <Group gap={4} align="flex-start">
              <StockUploadButton index={index} thumbnail={false} />
              <StockUploadButton index={index} thumbnail />
              <MakeThumbnailButton index={index} />
              {!event ? (
                <Text size="xs" c="dimmed">
                  {t('events.stock.uploadAfterSave')}
                </Text>
              ) : null}
            </Group>
          ) : null}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <NullableTextField
            name={`opts.stockImages.${index}.dateStart`}
            aria-label={t('events.stock.startOf', { row })}
            placeholder="YYYY-MM-DD HH:mm"
          />
          <NullableTextField
            name={`opts.stockImages.${index}.dateEnd`}
            aria-label={t('events.stock.endOf', { row })}
            placeholder="YYYY-MM-DD HH:mm"
          />
        </Stack>
      </Table.Td>
      <Table.Td>
        <TagPolicy index={index} />
      </Table.Td>
      <Table.Td>
        {isSuper ? (
          <Button size="compact-xs" variant="subtle" color="red" onClick={onRemove}>
            {t('events.stock.remove')}
          </Button>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * Copies the stock images of another event the user may see into this one (as new rows, saved
 * with the event): the same featured images across a series of events without uploading again.
 */
function CopyStockImages({ onCopy }: { onCopy: (images: StockImage[]) => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { event } = useEditorContext();
  const events = useEventList();
  const [source, setSource] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const options = (events.data?.events ?? [])
    .filter((e) => e.id !== event?.id)
    .map((e) => ({ value: String(e.id), label: `${e.full_name} (${e.name})` }));
  const copy = async () => {
    if (!source) return;
    setBusy(true);
    setMessage(null);
    try {
      const images = await otherEventStockImages(Number(source));
      onCopy(images.map((image) => ({ ...image, uid: newChannelId() })));
      setMessage({
        error: false,
        text:
          images.length === 0
            ? t('events.stock.copiedNone')
            : t('events.stock.copied', { count: images.length }),
      });
    } catch (error) {
      setMessage({ error: true, text: errorText(errorKeyOf(error)) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4}>
      <Group align="flex-end" gap="xs">
        <Select
          label={t('events.stock.copyFrom')}
          placeholder={t('events.stock.copyFromPlaceholder')}
          data={options}
          value={source}
          onChange={setSource}
          searchable
          size="xs"
          w={280}
        />
        <Button
          size="xs"
          variant="default"
          loading={busy}
          disabled={!source}
          onClick={() => void copy()}
        >
          {t('events.stock.copy')}
        </Button>
      </Group>
      {message ? (
        <Text
          size="xs"
          c={message.error ? 'red' : 'dimmed'}
          role={message.error ? 'alert' : 'status'}
        >
          {message.text}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * Stock images (albums spec §2.6, §3): images mixed into albums within a date window, by tag.
 * Super users add rows, upload images and thumbnails (or type their URLs) and remove rows.
 */
export function StockImagesTab() {
  const { t } = useTranslation();
  const { isSuper } = useEditorContext();
  const { control } = useFormContext<EventFormValues>();
  const { fields, append, remove } = useFieldArray({
    control,
    name: 'opts.stockImages',
    keyName: 'rowKey',
  });
  return (
    <Stack gap="sm">
      <FlagCheckbox name="stock_images_enable" label={t('events.stock.enable')} />
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('events.stock.thumbnail')}</Table.Th>
            <Table.Th>{t('events.stock.image')}</Table.Th>
            <Table.Th>{t('events.stock.dates')}</Table.Th>
            <Table.Th>{t('events.stock.policy')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={5}>
                <Text size="sm" c="dimmed">
                  {t('events.stock.none')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            fields.map((field, index) => (
              <StockImageRow key={field.rowKey} index={index} onRemove={() => remove(index)} />
            ))
          )}
        </Table.Tbody>
      </Table>
      {isSuper ? (
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() =>
              append({
                uid: newChannelId(),
                imgUrl: '',
                imgTmbUrl: '',
                imgSize: 0,
                imgTmbSize: 0,
                dateStart: null,
                dateEnd: null,
                policy: {},
              })
            }
          >
            {t('events.stock.add')}
          </Button>
        </Group>
      ) : null}
      {isSuper ? <CopyStockImages onCopy={(images) => append(images)} /> : null}
    </Stack>
  );
}
