// telemetry.ts: samples from the sensors of a weather station.

export enum SensorKind {
  Temperature = 1,
  Humidity,
  Pressure,
  Wind = 8,
  Rain,
}

export enum Unit {
  Celsius = "°C",
  Percent = "%",
  Hectopascal = "hPa",
  MetresPerSecond = "m/s",
}

/** Severity of an alert, in increasing order. */
export enum Severity {
  Info,
  Warning,
  Critical,
}

export const SAMPLE_PERIOD_MS = 5000;
export const STATION_NAME = "north-ridge";
export const CALIBRATED = true;
export const OFFSETS = [0.5, -0.25, 0];

export interface Sample {
  sensor: SensorKind;
  value: number;
  unit: Unit;
  takenAt: number;
  quality?: number;
}

export interface Alert {
  severity: Severity;
  message: string;
  sample?: Sample;
  acknowledged?: boolean;
}

export interface SampleSink {
  write(sample: Sample): void;
  flush?(): Promise<void>;
  readonly capacity: number;
}

export type Reading = [SensorKind, number];

export class Station {
  private buffer: Sample[] = [];
  lastAlert?: Alert;
  threshold = 40;

  constructor(private readonly sink: SampleSink) {}

  record(sample: Sample): Alert | undefined {
    this.buffer.push(sample);
    if (sample.value > this.threshold) {
      this.lastAlert = { severity: Severity.Warning, message: "high", sample };
    }
    return this.lastAlert;
  }

  drain(): void {
    for (const s of this.buffer) {
      this.sink.write(s);
    }
    this.buffer = [];
  }
}

export function unitOf(kind: SensorKind): Unit {
  switch (kind) {
    case SensorKind.Temperature:
      return Unit.Celsius;
    case SensorKind.Pressure:
      return Unit.Hectopascal;
    case SensorKind.Wind:
      return Unit.MetresPerSecond;
    default:
      return Unit.Percent;
  }
}
