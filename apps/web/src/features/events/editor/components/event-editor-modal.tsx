import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  Modal,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { FormProvider, useFormState, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { User } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useEventFullData } from '../api/events-api.ts';
import { EditorContext, type EditorContextValue } from '../hooks/editor-context.ts';
import { useEventEditor } from '../hooks/use-event-editor.ts';
import { EDITOR_TABS, tabOfField, type EditorTab } from '../utils/editor-tabs.ts';
import { newUploadFolder, type EventFormValues } from '../utils/event-form-values.ts';
import { EditorPopups } from './editor-popups.tsx';
import { EmailTab } from './email-tab.tsx';
import { GeneralTab } from './general-tab.tsx';
import { NotificationsTab } from './notifications-tab.tsx';
import { OptionsTab } from './options-tab.tsx';
import { PaidTab } from './paid-tab.tsx';
import { PhotoSettingsTab } from './photo-settings-tab.tsx';
import { PrintingTab } from './printing-tab.tsx';
import { SharingTab } from './sharing-tab.tsx';
import { ShopAddressTab } from './shop-address-tab.tsx';
import { SmsTab } from './sms-tab.tsx';
import { StockImagesTab } from './stock-images-tab.tsx';
import { StickyFooter } from './sticky-footer.tsx';
import { WatermarksTab } from './watermarks-tab.tsx';

/** What the editor opens: a new event, or an existing one by its code. */
export type EditorTarget =
  | { readonly mode: 'add'; readonly initial?: EventFormValues; readonly uploadFolder?: string }
  | { readonly mode: 'edit'; readonly code: string };

const tabPanels: Record<EditorTab, () => React.JSX.Element> = {
  general: GeneralTab,
  email: EmailTab,
  sharing: SharingTab,
  sms: SmsTab,
  photo: PhotoSettingsTab,
  printing: PrintingTab,
  paid: PaidTab,
  watermarks: WatermarksTab,
  stockImages: StockImagesTab,
  notifications: NotificationsTab,
  shopAddress: ShopAddressTab,
  options: OptionsTab,
};

/** The form paths holding an error (react-hook-form keeps them as a tree). */
export const errorPaths = (errors: FieldErrors, prefix = ''): string[] => {
  const paths: string[] = [];
  for (const [key, node] of Object.entries(errors)) {
    if (!node || typeof node !== 'object' || key === 'ref') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof (node as { message?: unknown }).message === 'string') paths.push(path);
    else paths.push(...errorPaths(node as FieldErrors, path));
  }
  return paths;
};

/** How many fields with an error each tab holds. */
export const errorCountsByTab = (paths: string[]): Partial<Record<EditorTab, number>> => {
  const counts: Partial<Record<EditorTab, number>> = {};
  for (const path of paths) {
    const tab = tabOfField(path);
    counts[tab] = (counts[tab] ?? 0) + 1;
  }
  return counts;
};

/** The input of a form path inside `root` (a Select's visible input rather than its hidden one). */
const inputOf = (root: HTMLElement, path: string): HTMLElement | null => {
  const named = root.querySelector<HTMLInputElement>(`[name="${path.replace(/["\\]/g, '\\$&')}"]`);
  if (!named) return null;
  if (named.type !== 'hidden') return named;
  return (
    named.parentElement?.querySelector<HTMLElement>('input:not([type="hidden"]), textarea') ?? null
  );
};

/** "Saved at 17:42" in the operator's own locale. */
const savedTime = (at: Date): string =>
  new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(at);

/** After a closing popup's own focus return (Mantine's is 10 ms), with room for a busy thread. */
const FOCUS_AFTER_POPUP_MS = 50;

/**
 * The event add/edit dialog (owner-console §2): a Mantine modal, full screen on phones, with one
 * tab per settings area. The request-form tab of three legacy events is not built.
 */
export function EventEditorModal({
  target,
  user,
  onClose,
  onDirtyChange,
  closeRequest = 0,
}: {
  target: EditorTarget;
  user: User;
  onClose: () => void;
  /** Told whether the form has unsaved changes (the page guards the browser's Back button). */
  onDirtyChange?: (dirty: boolean) => void;
  /** Each increase asks to close, as the close button does (unsaved changes ask first). */
  closeRequest?: number;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const phone = useMediaQuery('(max-width: 48em)');
  const editor = useEventEditor({
    user,
    onClose,
    ...(target.mode === 'add' && target.initial ? { initial: target.initial } : {}),
  });
  // A new event's uploads go to a folder of their own until the event has its code.
  const [uploadFolder] = useState(
    () => (target.mode === 'add' ? target.uploadFolder : undefined) ?? newUploadFolder(),
  );
  const code = target.mode === 'edit' ? target.code : null;
  const loaded = useEventFullData(code);
  const { load, revealSecure, dirty, requestClose, focusRequest, tab } = editor;
  const { errors } = useFormState({ control: editor.form.control });
  const errorCounts = errorCountsByTab(errorPaths(errors));
  const formRef = useRef<HTMLFormElement>(null);

  // A field named by the issues popup gets the focus once its tab is shown, and after the popup
  // gave the focus back to its opener (Mantine does that 10 ms after a modal closes): in the next
  // animation frame, that return came first or last depending on the frame rate and the load.
  useEffect(() => {
    if (!focusRequest) return;
    const timer = window.setTimeout(() => {
      const input = formRef.current ? inputOf(formRef.current, focusRequest.field) : null;
      input?.scrollIntoView?.({ block: 'center' });
      input?.focus();
    }, FOCUS_AFTER_POPUP_MS);
    return () => window.clearTimeout(timer);
  }, [focusRequest, tab]);

  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);
  const askedToClose = useRef(closeRequest);
  useEffect(() => {
    if (closeRequest === askedToClose.current) return;
    askedToClose.current = closeRequest;
    requestClose();
  }, [closeRequest, requestClose]);

  useEffect(() => {
    if (loaded.data) load(loaded.data);
  }, [loaded.data, load]);

  const context = useMemo<EditorContextValue>(
    () => ({
      mode: editor.mode,
      event: editor.event,
      user,
      isAdmin: user.role === 1 || user.role === 2,
      isSuper: user.role === 1,
      revealSecure: () => void revealSecure(),
      revealingSecure: editor.revealingSecure,
      uploadFolder,
    }),
    [editor.mode, editor.event, user, editor.revealingSecure, revealSecure, uploadFolder],
  );

  const waiting = code !== null && editor.event === null;
  const title =
    editor.mode === 'edit'
      ? t('events.editor.editTitle', { name: editor.event?.full_name ?? '' })
      : editor.mode === 'copy'
        ? t('events.editor.copyTitle')
        : t('events.editor.addTitle');

  const saveLabel =
    editor.mode === 'edit'
      ? t('events.editor.update')
      : editor.mode === 'copy'
        ? t('events.editor.saveCopy')
        : t('events.editor.add');

  return (
    <Modal
      opened
      onClose={editor.requestClose}
      title={title}
      size="xl"
      fullScreen={phone}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': t('events.editor.close') }}
    >
      {waiting ? (
        loaded.isError ? (
          <Alert color="red" role="alert">
            <Stack gap="xs">
              <Text>{errorText(errorKeyOf(loaded.error))}</Text>
              <Group>
                <Button size="xs" onClick={() => void loaded.refetch()}>
                  {t('events.list.retry')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <Center py="xl">
            <Loader aria-label={t('app.loading')} />
          </Center>
        )
      ) : (
        <EditorContext.Provider value={context}>
          <FormProvider {...editor.form}>
            <Box pos="relative" data-testid="event-editor">
              <form
                ref={formRef}
                noValidate
                aria-label={title}
                onSubmit={(e) => {
                  e.preventDefault();
                  void editor.save();
                }}
              >
                <fieldset disabled={editor.saving} style={{ border: 0, margin: 0, padding: 0 }}>
                  <Tabs
                    value={editor.tab}
                    onChange={(value) => value && editor.setTab(value as EditorTab)}
                    keepMounted={false}
                  >
                    <Tabs.List mb="md">
                      {EDITOR_TABS.map((tab) => {
                        const count = errorCounts[tab] ?? 0;
                        return (
                          <Tabs.Tab
                            key={tab}
                            value={tab}
                            color={count > 0 ? 'red' : undefined}
                            aria-description={
                              count > 0 ? t('events.editor.tabErrors', { count }) : undefined
                            }
                            rightSection={
                              count > 0 ? (
                                <Badge
                                  size="sm"
                                  color="red"
                                  circle
                                  aria-hidden
                                  data-testid={`tab-errors-${tab}`}
                                >
                                  {count}
                                </Badge>
                              ) : null
                            }
                          >
                            {t(`events.tabs.${tab}`)}
                          </Tabs.Tab>
                        );
                      })}
                    </Tabs.List>
                    {EDITOR_TABS.map((tab) => {
                      const Panel = tabPanels[tab];
                      return (
                        <Tabs.Panel key={tab} value={tab}>
                          <Panel />
                        </Tabs.Panel>
                      );
                    })}
                  </Tabs>
                  <StickyFooter>
                    <Group gap="xs">
                      {editor.mode === 'edit' ? (
                        <Menu position="top-start" withinPortal zIndex={400}>
                          <Menu.Target>
                            <Button variant="default">{t('events.editor.more')}</Button>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item color="red" onClick={editor.askDelete}>
                              {t('events.editor.delete')}
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      ) : null}
                    </Group>
                    <Group gap="xs">
                      {editor.savedAt && !editor.dirty ? (
                        <Text size="sm" c="green.8" role="status" data-testid="saved-at">
                          {t('events.editor.savedAt', { time: savedTime(editor.savedAt) })}
                        </Text>
                      ) : null}
                      <Button variant="default" onClick={editor.requestClose}>
                        {t('common.cancel')}
                      </Button>
                      {editor.mode === 'edit' ? (
                        <Button variant="light" onClick={editor.copy}>
                          {t('events.editor.copy')}
                        </Button>
                      ) : null}
                      <Button type="submit" loading={editor.saving}>
                        {saveLabel}
                      </Button>
                    </Group>
                  </StickyFooter>
                </fieldset>
              </form>
            </Box>
          </FormProvider>
          <EditorPopups editor={editor} />
        </EditorContext.Provider>
      )}
    </Modal>
  );
}
