import { screen, within } from '@testing-library/react';
import type { FlashbulbEvent, User } from '@flashbulb/shared';
import { EventEditorModal } from '../features/events/editor/components/event-editor-modal.tsx';
import { orgAdmin } from './event-fixtures.ts';
import { renderSignedIn } from './render-app.tsx';

/**
 * The editor of a stored event alone, signed in as `user`, for tests about the editor itself:
 * the page around it (the session restore, the shell, the event list) only adds render time.
 * Opening it from the events page (the address's event code) is proven in events-page.test.tsx
 * and editor-tabs.test.tsx. Answers its dialog once the form is in (the Title field).
 */
export const renderEventEditor = async (
  event: Pick<FlashbulbEvent, 'name' | 'full_name'>,
  user: User = orgAdmin,
) => {
  renderSignedIn(
    <EventEditorModal
      target={{ mode: 'edit', code: event.name }}
      user={user}
      onClose={() => undefined}
    />,
  );
  const dialog = await screen.findByRole('dialog', { name: `Edit event ${event.full_name}` });
  await within(dialog).findByLabelText(/^Title/);
  return dialog;
};
