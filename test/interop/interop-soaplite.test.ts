/**
 * Perl's SOAP::Lite against the served v2 ?wsdl (compiled-client.ts): SOAP::Lite->service builds its
 * stub from the WSDL and test/interop/clients/soaplite_v2_client.pl calls over SOAP 1.1, its
 * arguments in the WSDL's order. SOAP::Lite's stubs carry no types, so it hands the data over as text:
 * the suite reads each value by the declaration, as a Perl program would. A business error is a
 * soap:Client fault whose detail holds the ServiceError. Without SOAP::Lite (apt-get install
 * libsoap-lite-perl), jest.config.js leaves this file out and test/support/global-setup.ts says so.
 */
import path from 'node:path';
import { describeCompiledClient } from './compiled-client';

describeCompiledClient('Perl SOAP::Lite with a stub from the v2 WSDL', {
  faultCode: 'soap:Client',
  everyCall: true,
  build: () => Promise.resolve({ command: 'perl', args: [path.join(__dirname, 'clients', 'soaplite_v2_client.pl')] }),
});
