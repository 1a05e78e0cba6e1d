import path from 'node:path';
import { PaymentRepository } from '../repositories/payments/payment.repository.ts';
import { FilePrinterAdapter } from '../repositories/printing/file-printer.adapter.ts';
import { PrintJobRepository } from '../repositories/printing/print-job.repository.ts';
import { sharpSheetRenderer } from '../repositories/printing/sheet-renderer.ts';
import { PrintStationRepository } from '../repositories/printing/print-station.repository.ts';
import { PrintStationService } from '../services/printing/print-station.service.ts';
import { registerPrintListeners } from '../services/printing/print.listeners.ts';
import { AutoPrintService } from '../services/printing/auto-print.service.ts';
import { PrintDeskService } from '../services/printing/print-desk.service.ts';
import { PrintService } from '../services/printing/print.service.ts';
import { SheetPrintService } from '../services/printing/sheet-print.service.ts';
import type { Albums } from './albums.ts';
import type { Core } from './core.ts';
import type { Events } from './events.ts';
import type { Photos } from './photos.ts';
import { PrintTemplateService } from '../services/printing/print-template.service.ts';

/**
 * Printing (docs/domains/printing.md): print jobs, the sheet renderer, the embedded file
 * printer (`$FLASHBULB_DATA_DIR/prints/<pool>/`), auto-print and unlock-and-print listeners.
 */
export const wirePrinting = (core: Core, events: Events, photos: Photos, albums: Albums) => {
  const { config, database, bus, jobs, storage, logger, clock } = core;
  const printJobs = new PrintJobRepository(database.db);
  const printStations = new PrintStationRepository(database.db);
  const templates = events.repositories.printTemplates;
  const printing = new PrintService({
    access: events.access,
    albums: albums.repositories.albums,
    printJobs,
    templates,
    // Stateless: reads the guest's paid orders with prints (what a kiosk may print).
    purchases: new PaymentRepository(database.db),
    jobs,
    clock,
  });
  const printDesk = new PrintDeskService({
    access: events.access,
    albums: albums.repositories.albums,
    printJobs,
    storage,
    jobs,
    logger,
    clock,
  });
  const autoPrint = new AutoPrintService({
    events: events.repositories.events,
    photos: photos.repositories.photos,
    printJobs,
    templates,
    processes: events.repositories.imageProcesses,
    jobs,
    logger,
  });
  const printSheets = new SheetPrintService({
    events: events.repositories.events,
    albums: albums.repositories.albums,
    printJobs,
    stations: printStations,
    templates,
    storage,
    printer: new FilePrinterAdapter(path.join(config.dataDir, 'prints')),
    sheets: sharpSheetRenderer,
    jobs,
    bus,
    logger,
    clock,
  });
  registerPrintListeners(bus, autoPrint, printSheets);
  return {
    repositories: { printJobs, printStations },
    services: {
      printing,
      /** Print templates (the table is the events' too: an event names its watermark template). */
      printTemplates: new PrintTemplateService(templates, storage, clock),
      printDesk,
      autoPrint,
      printSheets,
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
