// The PDF of an invoice shown in the page (issue 28, point 3), in a frame of an object URL (the
// console's CSP allows blob: frames), revoked when the preview closes.
import { Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { invoicePdf } from './invoice-pdf.ts';

interface Props {
  companyId: string;
  file: { fileId: string; invoiceNumber: string } | null;
  onClose: () => void;
}

export function InvoicePreview({ companyId, file, onClose }: Props) {
  return (
    <Modal opened={file !== null} onClose={onClose} title={`Invoice ${file?.invoiceNumber ?? ''}`} size="80%">
      {file ? <Frame companyId={companyId} fileId={file.fileId} title={`Invoice ${file.invoiceNumber}`} /> : null}
    </Modal>
  );
}

function Frame({ companyId, fileId, title }: { companyId: string; fileId: string; title: string }) {
  const pdf = useQuery({ queryKey: ['invoice-pdf', companyId, fileId], queryFn: () => invoicePdf(companyId, fileId) });
  const blob = pdf.data;
  // The object URL lives as long as the frame that shows it.
  const attach = useCallback(
    (frame: HTMLIFrameElement | null) => {
      if (!frame || !blob) return;
      const url = URL.createObjectURL(blob);
      frame.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [blob],
  );
  if (pdf.error) return <ErrorNotice error={pdf.error} />;
  if (!blob) return <Loading label="Loading the PDF" />;
  return <iframe ref={attach} title={title} style={{ width: '100%', height: '70vh', border: 0 }} />;
}
