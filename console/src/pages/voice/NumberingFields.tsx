// The language and numbering of a CloudPBX, the same fields at creation and in its settings
// (document 2, create and update CloudPBX: language, numbering prefixes and digits).
import { NumberInput, Select, TextInput } from '@mantine/core';
import { LANGUAGES } from './languages.ts';

interface Props {
  language: string | null;
  setLanguage: (v: string | null) => void;
  prefixes: string;
  setPrefixes: (v: string) => void;
  digits: number | string;
  setDigits: (v: number | string) => void;
}

export function NumberingFields(p: Props) {
  return (
    <>
      <Select
        label="Language of the prompts"
        data={LANGUAGES}
        value={p.language}
        onChange={p.setLanguage}
        allowDeselect={false}
      />
      <TextInput
        label="Numbering prefixes"
        description="Digits, separated by commas: a prefix p allows the internal numbers p0…0 to p9…9"
        value={p.prefixes}
        onChange={(e) => p.setPrefixes(e.currentTarget.value)}
      />
      <NumberInput label="Digits after a prefix" min={1} max={10} value={p.digits} onChange={p.setDigits} />
    </>
  );
}
