<?php
/*
 * Interop client of the typed v2 contract: PHP's SoapClient builds its proxy from the served v2
 * ?wsdl and calls main-service operations with SOAP_1_1 or SOAP_1_2, its typed results mapped by
 * PHP itself (xs:int to int, xs:decimal to float, a list of one item to that item). Prints one JSON
 * array: {"operation", "args", "ok", "result" | "fault": {"code", "message", "detail"}}.
 *
 * usage: php php_v2_client.php <service-url-prefix> <1.1|1.2> <calls>
 *   e.g. php php_v2_client.php http://127.0.0.1:8080/API/v2 1.2 '[{"operation": "getPCNList", "args": {}}]'
 */

$prefix = rtrim($argv[1], '/');
$version = $argv[2] === '1.2' ? SOAP_1_2 : SOAP_1_1;
$calls = json_decode($argv[3], true, 16, JSON_THROW_ON_ERROR);

$client = new SoapClient("$prefix/MobileAppWebService.asmx?wsdl", [
    'soap_version' => $version,
    'exceptions' => true,
    'cache_wsdl' => WSDL_CACHE_NONE,
]);

$results = [];
foreach ($calls as $entry) {
    $operation = $entry['operation'];
    $record = ['operation' => $operation, 'args' => (object) $entry['args']];
    try {
        // Document/literal wrapped: one argument, the operation element's children.
        $response = $client->__soapCall($operation, [$entry['args']]);
        $record['ok'] = true;
        $record['result'] = $response->{$operation . 'Result'} ?? null;
    } catch (SoapFault $fault) {
        $record['ok'] = false;
        $detail = isset($fault->detail->ServiceError) ? $fault->detail->ServiceError : null;
        $record['fault'] = ['code' => $fault->faultcode, 'message' => $fault->getMessage(), 'detail' => $detail];
    }
    $results[] = $record;
}
echo json_encode($results, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION), "\n";
