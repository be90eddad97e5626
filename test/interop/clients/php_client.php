<?php
/*
 * Interop client: PHP's SoapClient (php-soap) builds its proxies from the served ?wsdl of both
 * services and calls operations with SOAP_1_1 or SOAP_1_2. Prints one JSON array of call results:
 * {"version", "operation", "ok", "result" | "fault": {"code", "message"}, "contentType"}.
 *
 * usage: php php_client.php <service-url-prefix> <1.1|1.2> <calls>
 *   e.g. php php_client.php http://127.0.0.1:8080/API 1.2 '[{"operation": "getPCNList", "args": {}}]'
 */

$prefix = rtrim($argv[1], '/');
$version = $argv[2] === '1.2' ? SOAP_1_2 : SOAP_1_1;

// Main-service calls: [{"operation": ..., "args": {...}}, ...]; HelloWorld is always called first.
$mainCalls = json_decode($argv[3], true, 16, JSON_THROW_ON_ERROR);

function client(string $wsdl, int $version): SoapClient
{
    return new SoapClient($wsdl, [
        'soap_version' => $version,
        'exceptions' => true,
        'trace' => true,
        'cache_wsdl' => WSDL_CACHE_NONE,
    ]);
}

function call(SoapClient $client, string $operation, array $args, string $version): array
{
    $entry = ['version' => $version, 'operation' => $operation, 'args' => (object) $args];
    try {
        // Document/literal wrapped: one argument, the operation element's children.
        $result = $client->__soapCall($operation, [$args]);
        $entry['ok'] = true;
        $entry['result'] = $result;
    } catch (SoapFault $fault) {
        $entry['ok'] = false;
        $entry['fault'] = ['code' => $fault->faultcode, 'message' => $fault->getMessage()];
    }
    $entry['requestContentType'] = contentType($client->__getLastRequestHeaders());
    $entry['responseContentType'] = contentType($client->__getLastResponseHeaders());
    return $entry;
}

function contentType(?string $headers): ?string
{
    if ($headers !== null && preg_match('/^Content-Type:\s*(.+?)\s*$/mi', $headers, $m)) {
        return $m[1];
    }
    return null;
}

$label = $argv[2] === '1.2' ? '1.2' : '1.1';
$results = [];
$sync = client("$prefix/SyncCustomers.asmx?wsdl", $version);
$results[] = call($sync, 'HelloWorld', [], $label);
$main = client("$prefix/MobileAppWebService.asmx?wsdl", $version);
foreach ($mainCalls as $entry) {
    $results[] = call($main, $entry['operation'], $entry['args'], $label);
}
echo json_encode($results, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
