import path from 'node:path';
import { FilePrinterAdapter } from '../repositories/printing/file-printer.adapter.ts';
import { PrintJobRepository } from '../repositories/printing/print-job.repository.ts';
import { sharpSheetRenderer } from '../repositories/printing/sheet-renderer.ts';
import { PrintStationRepository } from '../repositories/printing/print-station.repository.ts';
import { PrintStationService } from '../services/printing/print-station.service.ts';
import { registerPrintListeners } from '../services/printing/print.listeners.ts';
import { PrintService } from '../services/printing/print.service.ts';
import type { Albums } from './albums.ts';
import type { Core } from './core.ts';
import type { Events } from './events.ts';
import type { Photos } from './photos.ts';

/**
 * Printing (docs/domains/printing.md): print jobs, the sheet renderer, the embedded file
 * printer (`$FLASHBULB_DATA_DIR/prints/<pool>/`), auto-print and unlock-and-print listeners.
 */
export const wirePrinting = (core: Core, events: Events, photos: Photos, albums: Albums) => {
  const { config, database, bus, jobs, storage, logger, clock } = core;
  const printJobs = new PrintJobRepository(database.db);
  const printStations = new PrintStationRepository(database.db);
  const printing = new PrintService({
    access: events.access,
    events: events.repositories.events,
    photos: photos.repositories.photos,
    albums: albums.repositories.albums,
    printJobs,
    stations: printStations,
    templates: events.repositories.printTemplates,
    processes: events.repositories.imageProcesses,
    storage,
    printer: new FilePrinterAdapter(path.join(config.dataDir, 'prints')),
    sheets: sharpSheetRenderer,
    jobs,
    bus,
    logger,
    clock,
  });
  registerPrintListeners(bus, printing);
  return {
    repositories: { printJobs, printStations },
    services: {
      printing,
      printStationsAdmin: new PrintStationService({
        access: events.access,
        stations: printStations,
        storage,
        bus,
        clock,
      }),
    },
  };
};
export type Printing = ReturnType<typeof wirePrinting>;
