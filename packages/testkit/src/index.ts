export * from './gemini-mock';
export * from './run-kodo';
export * from './workspace';
