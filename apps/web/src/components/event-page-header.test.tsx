import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn } from '../test/render-app.tsx';
import { EventPageHeader } from './event-page-header.tsx';

describe('the head of a console page of one event', () => {
  it('shows the way back to the events list, the title, the line under it and the actions', () => {
    renderSignedIn(
      <EventPageHeader
        backLabel="Back to events"
        title="Orders of Summer Gala"
        subtitle="Event code ABCD"
        actions={<button type="button">Export CSV</button>}
      />,
    );
    // The chevron is decoration: the link is named by its words alone.
    const back = screen.getByRole('link', { name: 'Back to events' });
    expect(back.getAttribute('href')).toBe('/events');
    expect(back.textContent).toBe('‹ Back to events');
    const title = screen.getByRole('heading', { level: 2, name: 'Orders of Summer Gala' });
    expect(screen.getByText('Event code ABCD')).toBeTruthy();
    // The actions sit beside the title's block, in the same header row.
    const row = title.closest('.mantine-Group-root') as HTMLElement;
    expect(within(row).getByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });

  it('shows no way back when it has no label for it (a page that is not about one event)', () => {
    renderSignedIn(<EventPageHeader title="Outbox" />);
    expect(screen.getByRole('heading', { level: 2, name: 'Outbox' })).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
