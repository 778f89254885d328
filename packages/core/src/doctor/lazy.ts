/** `kodo doctor`'s checks, loaded only by that command. */
export type DoctorModule = typeof import('./checks');

export function loadDoctorModule(): Promise<DoctorModule> {
  return import('./checks');
}
