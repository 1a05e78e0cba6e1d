import { printRender, printResume, printTagStories } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PrintRenderDeps = {
  printing: { renderAndPrint(printJobId: number): Promise<unknown> };
};

// Idempotent: the job's state moves compare-and-set; a printed or cancelled job is skipped.
export const printRenderJob = defineJob(printRender, ({ printJobId }, deps: PrintRenderDeps) =>
  deps.printing.renderAndPrint(printJobId),
);

export type PrintResumeDeps = { printing: { resume(): Promise<unknown> } };

export const printResumeJob = defineJob(printResume, (_payload, deps: PrintResumeDeps) =>
  deps.printing.resume(),
);

export type PrintTagStoriesDeps = {
  printing: { tagStories(eventId: number, photoId: number): Promise<unknown> };
};

export const printTagStoriesJob = defineJob(
  printTagStories,
  ({ eventId, photoId }, deps: PrintTagStoriesDeps) => deps.printing.tagStories(eventId, photoId),
);
