// The lender's own code under test: registers a borrower with the Lending Origination API.

/** 'created' for a new borrower, 'exists' when the organisation has one with that e-mail. */
export async function registerBorrower({ baseUrl, apiKey }, person) {
  const reply = await fetch(`${baseUrl}/api/v1/user`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(person),
  });
  const envelope = await reply.json();
  if (envelope.status === 'success') return 'created';
  if (envelope.status === 'exists') return 'exists';
  throw new Error(`the API refused the borrower: ${envelope.message}`);
}
