import { createContext, useContext } from 'react';
import type { FlashbulbEvent, User } from '@flashbulb/shared';
import type { EditorMode } from '../utils/event-form-values.ts';

/** What every tab of the editor may need besides the form itself. */
export interface EditorContextValue {
  readonly mode: EditorMode;
  /** The stored event (edit and copy); null while adding. */
  readonly event: FlashbulbEvent | null;
  readonly user: User;
  /** Super users and admins (owner-console §6): secure fields, watermark templates. */
  readonly isAdmin: boolean;
  readonly isSuper: boolean;
  readonly revealSecure: () => void;
  readonly revealingSecure: boolean;
  /** Where image uploads go before the event exists (its code names the folder once it does). */
  readonly uploadFolder?: string;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export const useEditorContext = (): EditorContextValue => {
  const value = useContext(EditorContext);
  if (!value) throw new Error('useEditorContext outside the event editor');
  return value;
};
