import { createContext, useContext } from 'react';
import { Keymap } from '../keys/keymap';

/** The key bindings in force (`~/.kodo/keybindings.json` over kodo's own); the App provides them. */
export const KeymapContext = createContext<Keymap>(Keymap.defaults());

export function useKeymap(): Keymap {
  return useContext(KeymapContext);
}
