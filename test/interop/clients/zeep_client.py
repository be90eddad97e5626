"""
Interop client: python3-zeep builds its proxies from the served ?wsdl of both services and calls
operations over the SOAP 1.1, SOAP 1.2, HttpGet and HttpPost ports. Prints one JSON array of call
results on stdout: {"port", "operation", "ok", "result" | "fault": {"code", "message"}}.

usage: python3 zeep_client.py <service-url-prefix> <calls>
  <service-url-prefix>  e.g. http://127.0.0.1:8080/API
  <calls>               JSON [{"operation": "getPCNList", "args": {"Customer": "C001"}}, ...] of
                        main-service calls; SyncCustomers.HelloWorld is always called first

zeep deserialises the HttpGet/HttpPost output of HelloWorld (mime:mimeXml) itself; the main-service
operations declare an empty HTTP output (void in the WSDL), which zeep cannot deserialise, so for those
the request is still built by zeep's binding from the WSDL and sent by zeep's transport, and the JSON
body of the answer is read here.
"""
import json
import sys

import zeep
from zeep.exceptions import Fault

MAIN = "MobileAppWebService"
SYNC = "SyncCustomers"



def fault_of(error):
    return {"code": str(error.code), "message": error.message}


def soap_calls(prefix, port_suffix, main_calls):
    results = []
    sync = zeep.Client(f"{prefix}/{SYNC}.asmx?wsdl").bind(SYNC, SYNC + port_suffix)
    results.append(call(port_suffix, "HelloWorld", lambda: sync.HelloWorld()))
    main = zeep.Client(f"{prefix}/{MAIN}.asmx?wsdl").bind(MAIN, MAIN + port_suffix)
    for entry in main_calls:
        name, args = entry["operation"], entry["args"]
        results.append(call(port_suffix, name, lambda: getattr(main, name)(**args), args))
    return results


def http_calls(prefix, port_suffix, main_calls):
    results = []
    sync = zeep.Client(f"{prefix}/{SYNC}.asmx?wsdl").bind(SYNC, SYNC + port_suffix)
    results.append(call(port_suffix, "HelloWorld", lambda: sync.HelloWorld()))
    client = zeep.Client(f"{prefix}/{MAIN}.asmx?wsdl")
    port = client.wsdl.services[MAIN].ports[MAIN + port_suffix]
    for entry in main_calls:
        name, args = entry["operation"], entry["args"]
        results.append(call(port_suffix, name, lambda: http_json(client, port, name, args), args))
    return results


def http_json(client, port, name, args):
    """The request zeep's HTTP binding builds from the WSDL, sent by zeep's transport; JSON answer."""
    operation = port.binding.get(name)
    if port.binding.__class__.__name__ == "HttpPostBinding":
        # zeep writes an argument left out as the text "None" into a form body; ASMX requires every
        # parameter of an HttpPost call anyway, so each one is given (empty when not set).
        args = {**{param: "" for param, _ in operation.input.body.type.elements}, **args}
    message = operation.create(**args)
    url = port.binding_options["address"] + message.path
    if port.binding.__class__.__name__ == "HttpGetBinding":
        response = client.transport.get(url, message.content, headers=message.headers)
    else:
        response = client.transport.post(url, message.content, headers=message.headers)
    if response.status_code != 200:
        raise Fault(message=response.text, code=str(response.status_code))
    return {"status": response.status_code, "contentType": response.headers.get("Content-Type"), "body": response.json()}


def call(port, name, run, args=None):
    entry = {"port": port, "operation": name, "args": args or {}}
    try:
        entry["result"] = serialise(run())
        entry["ok"] = True
    except Fault as error:
        entry["ok"] = False
        entry["fault"] = fault_of(error)
    return entry


def serialise(value):
    if value is None or isinstance(value, (str, int, float, bool, dict, list)):
        return value
    return zeep.helpers.serialize_object(value, dict)


def main():
    prefix = sys.argv[1].rstrip("/")
    main_calls = json.loads(sys.argv[2])
    results = []
    results += soap_calls(prefix, "Soap", main_calls)
    results += soap_calls(prefix, "Soap12", main_calls)
    results += http_calls(prefix, "HttpGet", main_calls)
    results += http_calls(prefix, "HttpPost", main_calls)
    json.dump(results, sys.stdout, indent=1, default=str)


if __name__ == "__main__":
    main()
