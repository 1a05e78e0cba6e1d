/**
 * A print call's answer (`print-with-queue`, `print-story`) at event 7: sent to `pool`, one job a
 * sheet (`jobIds`), one copy each, not a replay of an earlier request.
 */
export const printQueued = (pool: string, jobIds: number[] = [1]) => ({
  ok: {
    event_id: 7,
    printer_pool_name: pool,
    print_job_ids: jobIds,
    sheet_count: jobIds.length,
    copies: 1,
    replayed: 0,
  },
});
