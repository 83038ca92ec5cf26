import { useNavigate } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page-header';
import { useToast } from '../../../components/toaster';
import { CreatePublisherForm } from '../components/create-publisher-form';

/** /publishers/create: a new publisher account (not approved until an administrator approves it). */
export function CreatePublisherPage() {
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <>
      <PageHeader title="New publisher">
        <p className="muted">
          The publisher can sign in at once and set its feed; it is imported once you approve it.
        </p>
      </PageHeader>
      <div className="card" style={{ maxWidth: 640 }}>
        <CreatePublisherForm
          onCreated={(publisher) => {
            toast({ kind: 'success', title: `${publisher.name} was created` });
            void navigate({ to: '/publishers/$id', params: { id: publisher.id } });
          }}
        />
      </div>
    </>
  );
}
