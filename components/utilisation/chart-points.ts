/** One bar of the utilisation chart: the held GPU-hours of a bucket, split four ways that add up to them. */
export type ChartPoint = { label: string; reservedTier: number; spot: number; idleReleased: number; idleHeld: number };
