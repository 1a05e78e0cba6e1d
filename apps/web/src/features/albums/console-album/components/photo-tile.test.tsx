import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { AppProviders } from '../../../../app/app-providers.tsx';
import { makePhoto } from '../../../../test/console-album-kit.tsx';
import { PhotoTile } from './photo-tile.tsx';

const tile = (photo: ReturnType<typeof makePhoto>) =>
  render(
    <AppProviders>
      <PhotoTile
        photo={photo}
        size={160}
        position={1}
        total={1}
        selected={false}
        onSelect={vi.fn()}
        onOpen={vi.fn()}
        onToggleVisibility={vi.fn()}
      />
    </AppProviders>,
  );

describe('photo tile badges', () => {
  it('marks curated photos and edited copies, and nothing on a plain original', () => {
    const { unmount } = tile(makePhoto(1));
    expect(screen.queryByText('Curated')).toBeNull();
    expect(screen.queryByText('Edited copy')).toBeNull();
    unmount();

    tile({ ...makePhoto(2), is_curated: 1, original_photo_id: 1 });
    expect(screen.getByText('Curated')).toBeTruthy();
    expect(screen.getByText('Edited copy').closest('[title]')?.getAttribute('title')).toBe(
      'Edited copy of photo 1',
    );
  });
});
