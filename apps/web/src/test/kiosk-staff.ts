import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** The staff PIN check a kiosk asks (fake it `{ ok: { valid: true } }` to let staff in). */
export const STAFF_PIN_PATH = '/attendee/kiosk-staff/check';

/**
 * What staff do at a kiosk: five taps in the top-left corner, the PIN on the keypad, "Open staff
 * controls"; resolves once the staff controls are on screen.
 */
export const openStaffControls = async (
  user: Pick<ReturnType<typeof userEvent.setup>, 'click'> = userEvent,
  pin = '2468',
): Promise<void> => {
  const corner = await waitFor(() => {
    const found = document.querySelector('[data-kiosk-staff-corner]');
    if (!found) throw new Error('no staff corner on screen');
    return found;
  });
  for (let tap = 0; tap < 5; tap += 1) await user.click(corner);
  const dialog = await screen.findByRole('dialog', { name: 'Staff only' });
  for (const digit of pin) await user.click(within(dialog).getByRole('button', { name: digit }));
  await user.click(within(dialog).getByRole('button', { name: 'Open staff controls' }));
  await screen.findByRole('region', { name: 'Staff controls' });
};
