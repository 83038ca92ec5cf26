import * as Toast from '@radix-ui/react-toast';
import { createContext, type ReactNode, useCallback, useContext, useState } from 'react';

export type ToastKind = 'info' | 'success' | 'error';
interface ToastItem {
  id: number;
  kind: ToastKind;
  title: string;
  description?: string | undefined;
}

export type ShowToast = (toast: { kind?: ToastKind; title: string; description?: string }) => void;

const ToastContext = createContext<ShowToast>(() => {});

/** Shows a toast; errors stay until closed, others for 5 seconds. */
export const useToast = (): ShowToast => useContext(ToastContext);

let nextId = 1;

export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const showToast = useCallback<ShowToast>(({ kind = 'info', title, description }) => {
    setToasts((current) => [...current.slice(-4), { id: nextId++, kind, title, description }]);
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
            duration={toast.kind === 'error' ? 60_000 : 5_000}
            onOpenChange={(open) => {
              if (!open) remove(toast.id);
            }}
          >
            <div>
              <Toast.Title className="toast-title">{toast.title}</Toast.Title>
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </div>
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
