import { useCallback, useState } from 'react';
import type { ChoiceRequest } from '../components/select-list';

export interface OpenChoice {
  request: ChoiceRequest;
  done(value?: string): void;
}

/** A menu a command opens in place of the input (`/model`); resolves to the choice or undefined. */
export function useChoice(): {
  choice: OpenChoice | undefined;
  choose(request: ChoiceRequest): Promise<string | undefined>;
} {
  const [choice, setChoice] = useState<OpenChoice>();
  const choose = useCallback(
    (request: ChoiceRequest) =>
      new Promise<string | undefined>((resolve) =>
        setChoice({
          request,
          done: (value) => {
            setChoice(undefined);
            resolve(value);
          },
        }),
      ),
    [],
  );
  return { choice, choose };
}
