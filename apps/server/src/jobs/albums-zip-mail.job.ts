import { albumsZipMail, type JobData } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type AlbumsZipMailDeps = {
  albumZipMail: {
    buildAndMail(job: { ticket: string; email: string; zipKey: string }): Promise<void>;
    deleteExpired(zipKey: string): Promise<void>;
  };
};

export const albumsZipMailJob = defineJob(
  albumsZipMail,
  (payload: JobData<'albums.zip-mail'>, deps: AlbumsZipMailDeps) =>
    'expiredZipKey' in payload
      ? deps.albumZipMail.deleteExpired(payload.expiredZipKey)
      : deps.albumZipMail.buildAndMail(payload),
);
