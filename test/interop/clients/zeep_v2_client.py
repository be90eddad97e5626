"""
Interop client of the typed v2 contract: python3-zeep builds its proxy from the served v2 ?wsdl and
calls main-service operations over the SOAP 1.1, SOAP 1.2 and HttpGet ports, deserialising the typed
results itself. Prints one JSON array on stdout: {"port", "operation", "args", "ok",
"result" | "fault": {"code", "message", "detail": {"Code", "Field", "Message"}}}.

usage: python3 zeep_v2_client.py <service-url-prefix> <calls>
  <service-url-prefix>  e.g. http://127.0.0.1:8080/API/v2
  <calls>               JSON [{"operation": "getPCNList", "args": {"Customer": "C001"}}, ...]

Results are zeep's own objects turned into plain data: decimals as their text, dates and timestamps
in ISO form, None for nil.
"""
import datetime
import decimal
import json
import sys

import zeep
from lxml import etree
from zeep.exceptions import Fault

MAIN = "MobileAppWebService"


def plain(value):
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    raise TypeError(f"not serialisable: {type(value)}")


def service_error(element):
    """Code, Field and Message of a ServiceError element (its namespace whatever it is)."""
    if element is None:
        return None
    return {etree.QName(child).localname: child.text for child in element}


def fault_of(error, http):
    if http:
        # Over HTTP zeep raises the 500 answer as a Fault whose message is the ServiceError document.
        body = error.message if isinstance(error.message, bytes) else str(error.message).encode("utf-8")
        return {"code": "500", "message": "", "detail": service_error(etree.fromstring(body))}
    detail = error.detail[0] if error.detail is not None and len(error.detail) else None
    return {"code": str(error.code), "message": error.message, "detail": service_error(detail)}


def calls_on(client, port, main_calls):
    service = client.bind(MAIN, MAIN + port)
    http = port.startswith("Http")
    results = []
    for entry in main_calls:
        name, args = entry["operation"], entry["args"]
        if http:
            # Every input of the operation, empty when not set: zeep writes a missing one as "None".
            operation = client.wsdl.services[MAIN].ports[MAIN + port].binding.get(name)
            args = {**{param: "" for param, _ in operation.input.body.type.elements}, **args}
        record = {"port": port, "operation": name, "args": entry["args"]}
        try:
            result = getattr(service, name)(**args)
            record["ok"] = True
            record["result"] = zeep.helpers.serialize_object(result, dict)
        except Fault as error:
            record["ok"] = False
            record["fault"] = fault_of(error, http)
        results.append(record)
    return results


def main():
    prefix = sys.argv[1].rstrip("/")
    main_calls = json.loads(sys.argv[2])
    client = zeep.Client(f"{prefix}/{MAIN}.asmx?wsdl")
    results = []
    for port in ("Soap", "Soap12", "HttpGet"):
        results += calls_on(client, port, main_calls)
    json.dump(results, sys.stdout, indent=1, default=plain, ensure_ascii=False)


if __name__ == "__main__":
    main()
