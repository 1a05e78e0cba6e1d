import { useState } from 'react';
import { Button, Group, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  createIgnoredFace,
  deleteIgnoredFaces,
  listIgnoredFaces,
  ownerPhotoList,
  searchByFace,
  type Photo,
} from '@flashbulb/shared';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';

/** How many of the event's newest photos the owner picks a face from. */
const PICK_FROM = 24;

/**
 * The owner's face tools for one event: pick one of its newest photos to search the event by the
 * face in it, or to ignore that face (staff, performers) in every search; the ignored faces are
 * listed with their photo and can be removed, after which their matches come back.
 */
export function FaceToolsPanel({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();
  const [searchedWith, setSearchedWith] = useState<Photo | null>(null);
  const photosKey = ['events', eventId, 'face-tools', 'photos'];
  const ignoredKey = ['events', eventId, 'face-tools', 'ignored'];
  const photos = useQuery({
    queryKey: photosKey,
    queryFn: ({ signal }) =>
      callApi(
        ownerPhotoList,
        { event_id: eventId, max_size: PICK_FROM, page_number: 1 },
        { signal },
      ),
  });
  const ignored = useQuery({
    queryKey: ignoredKey,
    queryFn: ({ signal }) => callApi(listIgnoredFaces, { event_id: eventId }, { signal }),
  });
  const search = useMutation({
    mutationFn: (photo: Photo) =>
      callApi(searchByFace, {
        event_id: eventId,
        photo_url_list: [photo.full_path],
        face_match_threshold: 80,
      }),
  });
  const refreshAfterChange = () => {
    void client.invalidateQueries({ queryKey: ignoredKey });
    void client.invalidateQueries({ queryKey: ['events', eventId, 'face-data'] });
    // Ignoring or un-ignoring a face changes what the last search finds.
    if (searchedWith) search.mutate(searchedWith);
  };
  const ignore = useMutation({
    mutationFn: (photo: Photo) =>
      callApi(createIgnoredFace, { event_id: eventId, full_path: photo.full_path }),
    onSuccess: refreshAfterChange,
  });
  const unignore = useMutation({
    mutationFn: (id: number) => callApi(deleteIgnoredFaces, { event_id: eventId, ids: [id] }),
    onSuccess: refreshAfterChange,
  });

  const images = (photos.data?.photos ?? []).filter((p) => p.media_type === 'image');
  const thumbnailOf = (fullPath: string) =>
    images.find((p) => p.full_path === fullPath)?.urls.thumbnail ?? null;
  const failure = [photos, ignored, search, ignore, unignore].find((q) => q.isError)?.error;

  return (
    <Stack gap="sm" aria-label={t('events.faceTools.title')} component="section">
      {failure !== undefined && <Text c="red">{errorText(errorKeyOf(failure))}</Text>}
      <Text fw={600}>{t('events.faceTools.pick')}</Text>
      {photos.data && images.length === 0 && (
        <Text c="dimmed">{t('events.faceTools.noPhotos')}</Text>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        {images.map((photo) => (
          <Stack key={photo.id} gap={4} data-testid="face-photo">
            {photo.urls.thumbnail && (
              <Image src={photo.urls.thumbnail} alt={photo.file_name} h={90} fit="contain" />
            )}
            <Button
              size="xs"
              variant="light"
              loading={search.isPending && search.variables?.id === photo.id}
              onClick={() => {
                setSearchedWith(photo);
                search.mutate(photo);
              }}
              aria-label={t('events.faceTools.searchWith', { name: photo.file_name })}
            >
              {t('events.faceTools.search')}
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => ignore.mutate(photo)}
              aria-label={t('events.faceTools.ignoreFrom', { name: photo.file_name })}
            >
              {t('events.faceTools.ignore')}
            </Button>
          </Stack>
        ))}
      </SimpleGrid>

      {searchedWith && search.data && (
        <Stack gap={4} aria-label={t('events.faceTools.matches')} component="section">
          <Text fw={600}>
            {t('events.faceTools.matchesOf', {
              name: searchedWith.file_name,
              count: search.data.photos.length,
            })}
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {search.data.photos.map((match) => (
              <Stack key={match.id} gap={2} data-testid="face-match">
                {match.urls.thumbnail && (
                  <Image src={match.urls.thumbnail} alt={match.file_name} h={90} fit="contain" />
                )}
                <Text size="xs">
                  {t('events.faceTools.similarity', {
                    name: match.file_name,
                    similarity: Math.round(match.similarity),
                  })}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Stack>
      )}

      <Text fw={600}>{t('events.faceTools.ignoredTitle')}</Text>
      {ignored.data && ignored.data.faces.length === 0 && (
        <Text c="dimmed">{t('events.faceTools.noneIgnored')}</Text>
      )}
      {ignored.data?.faces.map((face) => {
        const name = face.full_path.split('/').slice(-2).join('/');
        const thumbnail = thumbnailOf(face.full_path);
        return (
          <Group key={face.id} gap="sm" data-testid="ignored-face">
            {thumbnail && <Image src={thumbnail} alt={name} h={48} w={48} fit="cover" />}
            <Text size="sm">{name}</Text>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              loading={unignore.isPending && unignore.variables === face.id}
              onClick={() => unignore.mutate(face.id)}
              aria-label={t('events.faceTools.removeNamed', { name })}
            >
              {t('events.faceTools.remove')}
            </Button>
          </Group>
        );
      })}
    </Stack>
  );
}
