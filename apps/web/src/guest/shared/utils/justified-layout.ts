// The layout rule lives in the shared package: the server lays out an album link's first row with
// it too (its first paint, before this page's scripts run).
export * from '@flashbulb/shared/rules/justified-layout';
