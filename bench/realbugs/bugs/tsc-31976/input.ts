export const make = (): { start?(): void; stop?: () => void } => ({});
