import { paymentsBuyerAlbumsCleanup } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PaymentsBuyerAlbumsCleanupDeps = {
  albumPurchases: { removeUnpaidAlbums(): Promise<unknown> };
};

export const paymentsBuyerAlbumsCleanupJob = defineJob(
  paymentsBuyerAlbumsCleanup,
  (_payload, deps: PaymentsBuyerAlbumsCleanupDeps) => deps.albumPurchases.removeUnpaidAlbums(),
);
