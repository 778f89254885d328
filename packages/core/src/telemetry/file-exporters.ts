import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import {
  AggregationTemporality,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';

/**
 * Appends exported items to a local file, each as pretty JSON followed by a newline (the format
 * Gemini CLI's local telemetry uses, so the same tools read both). Writes are chained so items
 * never interleave, and failures are reported to the SDK, never thrown into the session.
 */
class JsonFileWriter {
  private chain: Promise<void> = Promise.resolve();
  private ready: Promise<unknown> | undefined;

  constructor(private readonly path: string) {}

  write(items: unknown[], done: (result: ExportResult) => void): void {
    this.ready ??= mkdir(dirname(this.path), { recursive: true });
    const text = items.map((item) => `${JSON.stringify(item, null, 2)}\n`).join('');
    this.chain = this.chain
      .then(() => this.ready)
      .then(() => appendFile(this.path, text, 'utf8'))
      .then(
        () => done({ code: ExportResultCode.SUCCESS }),
        (error: Error) => done({ code: ExportResultCode.FAILED, error }),
      );
  }

  flush(): Promise<void> {
    return this.chain;
  }
}

export class FileLogExporter implements LogRecordExporter {
  private readonly writer: JsonFileWriter;

  constructor(path: string) {
    this.writer = new JsonFileWriter(path);
  }

  export(logs: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    this.writer.write(
      logs.map((log) => ({
        body: log.body,
        attributes: log.attributes,
        severityText: log.severityText,
        hrTime: log.hrTime,
        resource: { attributes: log.resource.attributes },
        instrumentationScope: log.instrumentationScope,
      })),
      done,
    );
  }

  forceFlush(): Promise<void> {
    return this.writer.flush();
  }

  shutdown(): Promise<void> {
    return this.writer.flush();
  }
}

export class FileMetricExporter implements PushMetricExporter {
  private readonly writer: JsonFileWriter;

  constructor(path: string) {
    this.writer = new JsonFileWriter(path);
  }

  export(metrics: ResourceMetrics, done: (result: ExportResult) => void): void {
    this.writer.write(
      [
        {
          resource: { attributes: metrics.resource.attributes },
          scopeMetrics: metrics.scopeMetrics.map((scope) => ({
            scope: scope.scope,
            metrics: scope.metrics.map((metric) => ({
              descriptor: metric.descriptor,
              dataPointType: metric.dataPointType,
              dataPoints: metric.dataPoints,
            })),
          })),
        },
      ],
      done,
    );
  }

  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }

  forceFlush(): Promise<void> {
    return this.writer.flush();
  }

  shutdown(): Promise<void> {
    return this.writer.flush();
  }
}
