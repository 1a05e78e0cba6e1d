import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import { AppProviders } from '../../../../app/app-providers.tsx';
import { makePhoto } from '../../../../test/console-album-kit.tsx';
import { gridColumns, ConsolePhotoGrid } from './console-photo-grid.tsx';

const TEN_THOUSAND = Array.from({ length: 10_000 }, (_, i) => makePhoto(10_000 - i));

const renderGrid = (onLoadMore = vi.fn()) => {
  render(
    <AppProviders>
      <ConsolePhotoGrid
        photos={TEN_THOUSAND}
        selected={new Set([5000])}
        total={12_000}
        hasMore
        loadingMore={false}
        onLoadMore={onLoadMore}
        onSelect={vi.fn()}
        onOpen={vi.fn()}
        onToggleVisibility={vi.fn()}
      />
    </AppProviders>,
  );
  const list = screen.getByRole('list', { name: 'Photos' });
  return { list, items: () => within(list).getAllByRole('listitem'), onLoadMore };
};

describe('console album grid at 10,000 photos', () => {
  it('puts only the rows in view in the page, with fixed tile sizes and positions in the set', () => {
    const { list, items } = renderGrid();
    expect(items().length).toBeGreaterThan(0);
    expect(items().length).toBeLessThanOrEqual(60);
    // The list is as tall as all 2,000 rows, so the scrollbar is true from the start.
    const rows = Math.ceil(10_000 / gridColumns(1000));
    expect(parseInt(list.style.height, 10)).toBeGreaterThan(rows * 160);
    expect(items()[0]?.getAttribute('aria-posinset')).toBe('1');
    expect(items()[0]?.getAttribute('aria-setsize')).toBe('12000');
    const img = items()[0]!.querySelector('img')!;
    expect(img.getAttribute('width')).toBe(img.getAttribute('height'));
    expect(Number(img.getAttribute('width'))).toBeGreaterThanOrEqual(160);
  });

  it('shows the photos around the scroll position, and asks for more only near the end', () => {
    const { items, onLoadMore } = renderGrid();
    expect(onLoadMore).not.toHaveBeenCalled();
    const scroller = screen.getByTestId('album-grid-scroll');
    const rowHeight =
      parseInt(screen.getByRole('list', { name: 'Photos' }).style.height, 10) / 2000;

    act(() => {
      scroller.scrollTop = rowHeight * 1000;
      scroller.dispatchEvent(new Event('scroll'));
    });
    const middle = items().map((item) => Number(item.getAttribute('aria-posinset')));
    expect(Math.min(...middle)).toBeGreaterThan(4900);
    expect(Math.max(...middle)).toBeLessThan(5200);
    expect(items().length).toBeLessThanOrEqual(60);
    expect(screen.getByRole('checkbox', { name: 'Select photo-5000.jpg' })).toHaveProperty(
      'checked',
      true,
    );
    expect(onLoadMore).not.toHaveBeenCalled();

    act(() => {
      scroller.scrollTop = rowHeight * 2000;
      scroller.dispatchEvent(new Event('scroll'));
    });
    expect(onLoadMore).toHaveBeenCalled();
  });
});
