import * as Toast from '@radix-ui/react-toast';
import { createContext, type ReactNode, useCallback, useContext, useState } from 'react';

export type ToastKind = 'info' | 'success' | 'error';
/** A button in the toast (e.g. Undo); clicking it closes the toast. */
export interface ToastAction {
  label: string;
  /** What the action does, for screen readers that reach it another way (Radix announces it). */
  altText: string;
  onAction(): void;
}

interface ToastItem {
  id: number;
  kind: ToastKind;
  title: string;
  description?: string | undefined;
  action?: ToastAction | undefined;
  duration?: number | undefined;
}

export type ShowToast = (toast: {
  kind?: ToastKind;
  title: string;
  description?: string;
  action?: ToastAction;
  /** Milliseconds before it closes by itself (paused while hovered or focused). */
  duration?: number;
}) => void;

const ToastContext = createContext<ShowToast>(() => {});

/** Shows a toast; errors stay until closed, others for 5 seconds unless a duration is given. */
export const useToast = (): ShowToast => useContext(ToastContext);

let nextId = 1;

export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const showToast = useCallback<ShowToast>(({ kind = 'info', title, description, action, duration }) => {
    setToasts((current) => [
      ...current.slice(-4),
      { id: nextId++, kind, title, description, action, duration },
    ]);
  }, []);
  const remove = (id: number) => setToasts((current) => current.filter((toast) => toast.id !== id));

  return (
    <ToastContext.Provider value={showToast}>
      <Toast.Provider swipeDirection="right" label="Notification">
        {children}
        {toasts.map((toast) => (
          <Toast.Root
            key={toast.id}
            className={`toast toast-${toast.kind}`}
            type={toast.kind === 'error' ? 'foreground' : 'background'}
            duration={toast.duration ?? (toast.kind === 'error' ? 60_000 : 5_000)}
            onOpenChange={(open) => {
              if (!open) remove(toast.id);
            }}
          >
            <div>
              <Toast.Title className="toast-title">{toast.title}</Toast.Title>
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </div>
            {toast.action && (
              <Toast.Action
                className="btn btn-small"
                altText={toast.action.altText}
                onClick={toast.action.onAction}
              >
                {toast.action.label}
              </Toast.Action>
            )}
            <Toast.Close className="btn btn-small" aria-label="Close notification">
              ×
            </Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className="toast-viewport" />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}
