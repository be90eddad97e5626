/**
 * The fixed reference data of the demo company: an Indian distributor of pumps, fans, lighting,
 * wires and motors. Regions, divisions, product range and the name pools the generator draws from.
 */

export const ZONES = [
  { code: 'N', name: 'North' },
  { code: 'S', name: 'South' },
  { code: 'E', name: 'East' },
  { code: 'W', name: 'West' },
  { code: 'C', name: 'Central' },
  { code: 'NE', name: 'North East' },
];

export interface StateSpec {
  code: string;
  name: string;
  zone: string;
  /** Relative share of the customers of its zone. */
  weight: number;
  cities: string[];
}

export const STATES: StateSpec[] = [
  { code: 'DL', name: 'Delhi', zone: 'N', weight: 3, cities: ['New Delhi', 'Dwarka', 'Rohini'] },
  { code: 'HR', name: 'Haryana', zone: 'N', weight: 2, cities: ['Gurugram', 'Faridabad', 'Karnal', 'Hisar'] },
  { code: 'PB', name: 'Punjab', zone: 'N', weight: 2, cities: ['Ludhiana', 'Amritsar', 'Jalandhar', 'Patiala'] },
  { code: 'UP', name: 'Uttar Pradesh', zone: 'N', weight: 5, cities: ['Lucknow', 'Kanpur', 'Agra', 'Varanasi', 'Meerut'] },
  { code: 'UK', name: 'Uttarakhand', zone: 'N', weight: 1, cities: ['Dehradun', 'Haridwar', 'Haldwani'] },
  { code: 'HP', name: 'Himachal Pradesh', zone: 'N', weight: 1, cities: ['Shimla', 'Mandi', 'Solan'] },
  { code: 'JK', name: 'Jammu and Kashmir', zone: 'N', weight: 1, cities: ['Jammu', 'Srinagar'] },
  { code: 'RJ', name: 'Rajasthan', zone: 'N', weight: 3, cities: ['Jaipur', 'Jodhpur', 'Kota', 'Udaipur'] },
  { code: 'KA', name: 'Karnataka', zone: 'S', weight: 4, cities: ['Bengaluru', 'Mysuru', 'Hubballi', 'Mangaluru'] },
  { code: 'TN', name: 'Tamil Nadu', zone: 'S', weight: 4, cities: ['Chennai', 'Coimbatore', 'Madurai', 'Salem'] },
  { code: 'KL', name: 'Kerala', zone: 'S', weight: 2, cities: ['Kochi', 'Thiruvananthapuram', 'Kozhikode'] },
  { code: 'AP', name: 'Andhra Pradesh', zone: 'S', weight: 3, cities: ['Vijayawada', 'Visakhapatnam', 'Guntur', 'Tirupati'] },
  { code: 'TS', name: 'Telangana', zone: 'S', weight: 3, cities: ['Hyderabad', 'Warangal', 'Karimnagar'] },
  { code: 'WB', name: 'West Bengal', zone: 'E', weight: 4, cities: ['Kolkata', 'Howrah', 'Siliguri', 'Durgapur'] },
  { code: 'OD', name: 'Odisha', zone: 'E', weight: 2, cities: ['Bhubaneswar', 'Cuttack', 'Rourkela'] },
  { code: 'BR', name: 'Bihar', zone: 'E', weight: 3, cities: ['Patna', 'Gaya', 'Muzaffarpur', 'Bhagalpur'] },
  { code: 'JH', name: 'Jharkhand', zone: 'E', weight: 1, cities: ['Ranchi', 'Jamshedpur', 'Dhanbad'] },
  { code: 'MH', name: 'Maharashtra', zone: 'W', weight: 6, cities: ['Mumbai', 'Pune', 'Nagpur', 'Nashik', 'Aurangabad'] },
  { code: 'GJ', name: 'Gujarat', zone: 'W', weight: 4, cities: ['Ahmedabad', 'Surat', 'Rajkot', 'Vadodara'] },
  { code: 'GA', name: 'Goa', zone: 'W', weight: 1, cities: ['Panaji', 'Margao'] },
  { code: 'MP', name: 'Madhya Pradesh', zone: 'C', weight: 3, cities: ['Indore', 'Bhopal', 'Jabalpur', 'Gwalior'] },
  { code: 'CG', name: 'Chhattisgarh', zone: 'C', weight: 2, cities: ['Raipur', 'Bilaspur', 'Durg'] },
  { code: 'AS', name: 'Assam', zone: 'NE', weight: 3, cities: ['Guwahati', 'Dibrugarh', 'Silchar'] },
  { code: 'ML', name: 'Meghalaya', zone: 'NE', weight: 1, cities: ['Shillong'] },
  { code: 'TR', name: 'Tripura', zone: 'NE', weight: 1, cities: ['Agartala'] },
  { code: 'MN', name: 'Manipur', zone: 'NE', weight: 1, cities: ['Imphal'] },
];

/** Zonal managers and the zones each one covers (the first is the one stored on the user). */
export const ZONAL_REGIONS: string[][] = [['N'], ['S'], ['E', 'NE'], ['W', 'C']];

/** Area managers are spread over the zones in this order, so even a small company covers every zone. */
export const AREA_ZONE_CYCLE = ['N', 'S', 'E', 'W', 'C', 'NE', 'N', 'S', 'W', 'E'];

export const PROFIT_CENTERS = [
  { code: 'AGRI', name: 'Agriculture Pumps' },
  { code: 'DOMA', name: 'Domestic Appliances' },
  { code: 'LGHT', name: 'Lighting' },
  { code: 'WIRE', name: 'Wires and Cables' },
  { code: 'INDL', name: 'Industrial Products' },
];

export interface CategorySpec {
  code: string;
  name: string;
  profitCenter: string;
  /** The first words of its products' names. */
  stem: string;
  /** Unit prices in rupees of the cheapest and the dearest model. */
  priceFrom: number;
  priceTo: number;
  /** Usual quantity of one order line, and the multiple it is ordered in. */
  quantity: [number, number];
  packOf: number;
  models: string[];
}

export const CATEGORIES: CategorySpec[] = [
  {
    code: 'SUBM', stem: 'Submersible Pump', name: 'Submersible Pumps', profitCenter: 'AGRI', priceFrom: 7800, priceTo: 62000, quantity: [1, 6], packOf: 1,
    models: ['V3 0.5HP', 'V3 0.75HP', 'V3 1HP', 'V4 1HP', 'V4 1.5HP', 'V4 2HP', 'V4 3HP', 'V4 5HP', 'V6 5HP', 'V6 7.5HP', 'V6 10HP', 'V6 12.5HP'],
  },
  {
    code: 'MONO', stem: 'Monoblock Pump', name: 'Monoblock Pumps', profitCenter: 'AGRI', priceFrom: 4200, priceTo: 38000, quantity: [1, 10], packOf: 1,
    models: ['0.5HP', '1HP', '1.5HP', '2HP', '3HP', '5HP', '7.5HP', '10HP', 'Self-Priming 0.5HP', 'Self-Priming 1HP', 'Openwell 1HP', 'Openwell 2HP'],
  },
  {
    code: 'CNTR', stem: 'Pump', name: 'Pump Controllers and Starters', profitCenter: 'AGRI', priceFrom: 1500, priceTo: 18000, quantity: [2, 20], packOf: 1,
    models: ['DOL Starter 1HP', 'DOL Starter 3HP', 'DOL Starter 5HP', 'Star-Delta Starter 7.5HP', 'Star-Delta Starter 10HP', 'Control Panel 1HP', 'Control Panel 2HP', 'Control Panel 3HP', 'Auto Switch Single Phase', 'Auto Switch Three Phase', 'Solar Drive 3HP', 'Solar Drive 5HP'],
  },
  {
    code: 'FANS', stem: 'Ceiling Fan', name: 'Ceiling Fans', profitCenter: 'DOMA', priceFrom: 1600, priceTo: 6800, quantity: [5, 50], packOf: 5,
    models: ['Classic 900mm', 'Classic 1200mm', 'Classic 1400mm', 'Hi-Speed 1200mm', 'Decor 1200mm', 'Decor Plus 1200mm', 'Anti-Dust 1200mm', 'Energy Saver 1200mm', 'BLDC 900mm', 'BLDC 1200mm', 'BLDC Remote 1200mm', 'Designer 1320mm', 'Underlight 1200mm', 'Industrial 1400mm'],
  },
  {
    code: 'TPFN', stem: 'Fan', name: 'Table, Pedestal and Wall Fans', profitCenter: 'DOMA', priceFrom: 1400, priceTo: 4500, quantity: [4, 40], packOf: 2,
    models: ['Table 300mm', 'Table 400mm', 'Pedestal 400mm', 'Pedestal High-Speed 450mm', 'Wall 300mm', 'Wall 400mm', 'Wall Remote 400mm', 'Exhaust 150mm', 'Exhaust 250mm', 'Exhaust 300mm', 'Personal 230mm', 'Tower Fan'],
  },
  {
    code: 'WHTR', stem: 'Water Heater', name: 'Water Heaters', profitCenter: 'DOMA', priceFrom: 4500, priceTo: 18000, quantity: [2, 15], packOf: 1,
    models: ['Instant 1L', 'Instant 3L', 'Instant 5L', 'Storage 6L', 'Storage 10L', 'Storage 15L', 'Storage 25L', 'Storage 35L', 'Storage 50L', 'Horizontal 25L', 'Smart 15L', 'Smart 25L'],
  },
  {
    code: 'MIXG', stem: 'Kitchen', name: 'Mixer Grinders', profitCenter: 'DOMA', priceFrom: 2200, priceTo: 7500, quantity: [3, 25], packOf: 1,
    models: ['Mixer 500W 2 Jar', 'Mixer 500W 3 Jar', 'Mixer 750W 3 Jar', 'Mixer 750W 4 Jar', 'Mixer 1000W 4 Jar', 'Juicer Mixer 500W', 'Juicer Mixer 750W', 'Wet Grinder 2L', 'Wet Grinder Tilting 2L', 'Hand Blender 300W', 'Food Processor 800W', 'Chopper 400W'],
  },
  {
    code: 'LEDB', stem: 'LED', name: 'LED Bulbs and Battens', profitCenter: 'LGHT', priceFrom: 90, priceTo: 650, quantity: [20, 400], packOf: 10,
    models: ['Bulb 5W', 'Bulb 7W', 'Bulb 9W', 'Bulb 12W', 'Bulb 15W', 'Bulb 20W', 'Emergency Bulb 9W', 'Batten 10W 2ft', 'Batten 20W 4ft', 'Batten 22W 4ft', 'Batten 36W 4ft', 'Tube Light Set 20W', 'Colour Bulb 0.5W', 'Candle Lamp 3W'],
  },
  {
    code: 'LEDL', stem: 'LED', name: 'LED Luminaires', profitCenter: 'LGHT', priceFrom: 450, priceTo: 6500, quantity: [5, 80], packOf: 5,
    models: ['Panel Round 6W', 'Panel Round 12W', 'Panel Square 15W', 'Panel Square 18W', 'Downlight 9W', 'Spotlight 7W', 'Flood Light 30W', 'Flood Light 50W', 'Flood Light 100W', 'Street Light 30W', 'Street Light 60W', 'High Bay 100W'],
  },
  {
    code: 'HWIR', stem: 'House Wire', name: 'House Wires', profitCenter: 'WIRE', priceFrom: 1100, priceTo: 9800, quantity: [5, 50], packOf: 5,
    models: ['FR 0.75 sq mm 90m', 'FR 1.0 sq mm 90m', 'FR 1.5 sq mm 90m', 'FR 2.5 sq mm 90m', 'FR 4.0 sq mm 90m', 'FR 6.0 sq mm 90m', 'FRLS 1.0 sq mm 90m', 'FRLS 1.5 sq mm 90m', 'FRLS 2.5 sq mm 90m', 'FRLS 4.0 sq mm 90m', 'HFFR 1.5 sq mm 90m', 'HFFR 2.5 sq mm 90m', 'Flexible 1.5 sq mm 180m', 'Flexible 2.5 sq mm 180m'],
  },
  {
    code: 'PCAB', stem: 'Cable', name: 'Power and Submersible Cables', profitCenter: 'WIRE', priceFrom: 8500, priceTo: 95000, quantity: [1, 5], packOf: 1,
    models: ['Submersible Flat 1.5 sq mm 100m', 'Submersible Flat 2.5 sq mm 100m', 'Submersible Flat 4 sq mm 100m', 'Submersible Flat 6 sq mm 100m', 'Armoured 2C 4 sq mm 100m', 'Armoured 3C 6 sq mm 100m', 'Armoured 4C 10 sq mm 100m', 'Armoured 4C 16 sq mm 100m', 'Armoured 4C 25 sq mm 100m', 'Control 7C 1.5 sq mm 100m', 'Control 12C 1.5 sq mm 100m', 'Solar DC 4 sq mm 100m'],
  },
  {
    code: 'IMOT', stem: 'Motor', name: 'Industrial Motors', profitCenter: 'INDL', priceFrom: 9000, priceTo: 145000, quantity: [1, 3], packOf: 1,
    models: ['IE2 1HP 4 Pole', 'IE2 2HP 4 Pole', 'IE2 3HP 4 Pole', 'IE2 5HP 4 Pole', 'IE2 7.5HP 4 Pole', 'IE3 10HP 4 Pole', 'IE3 15HP 4 Pole', 'IE3 20HP 4 Pole', 'IE3 25HP 4 Pole', 'IE3 30HP 4 Pole', 'IE3 40HP 4 Pole', 'IE3 50HP 4 Pole'],
  },
];

export const FIRST_NAMES = [
  'Rahul', 'Amit', 'Priya', 'Suresh', 'Anjali', 'Vikram', 'Neha', 'Rajesh', 'Sunita', 'Arun', 'Kavita', 'Manoj',
  'Deepak', 'Pooja', 'Sanjay', 'Ritu', 'Karthik', 'Lakshmi', 'Arjun', 'Meera', 'Ravi', 'Sneha', 'Vijay', 'Divya',
  'Nikhil', 'Swati', 'Ashok', 'Geeta', 'Harish', 'Rekha', 'Imran', 'Farah', 'Gurpreet', 'Harpreet', 'Sourav',
  'Debashish', 'Anand', 'Venkatesh', 'Ramesh', 'Shalini', 'Prakash', 'Naveen', 'Bhavna', 'Tarun', 'Kiran',
];

export const LAST_NAMES = [
  'Sharma', 'Verma', 'Patel', 'Reddy', 'Nair', 'Iyer', 'Gupta', 'Singh', 'Das', 'Mukherjee', 'Banerjee', 'Joshi',
  'Kulkarni', 'Deshmukh', 'Pillai', 'Menon', 'Rao', 'Naidu', 'Chauhan', 'Yadav', 'Mishra', 'Pandey', 'Saxena',
  'Bhat', 'Shetty', 'Gowda', 'Khan', 'Ansari', 'Sethi', 'Malhotra', 'Kapoor', 'Bora', 'Sarma', 'Chatterjee',
  'Mehta', 'Shah', 'Desai', 'Trivedi', 'Tiwari', 'Dubey',
];

export const DEALER_PREFIXES = [
  'Shree', 'Sri', 'Jai', 'New', 'Maa', 'Om', 'Royal', 'National', 'Modern', 'Bharat', 'Sai', 'Balaji', 'Ganesh',
  'Krishna', 'Laxmi', 'Durga', 'Ambika', 'Vinayak', 'Mahalaxmi', 'Guru', 'Sharma', 'Patel', 'Agarwal', 'Gupta',
  'Reddy', 'Jain', 'Mehta', 'Singh', 'Nair', 'Rao', 'Star', 'Sunrise', 'Galaxy', 'Unique', 'Perfect',
];

export const DEALER_TRADES = [
  'Electricals', 'Traders', 'Agencies', 'Enterprises', 'Pump House', 'Electric Stores', 'Sales Corporation',
  'Distributors', 'Marketing', 'Hardware', 'Agro Services', 'Power Solutions', 'Electric Company', 'Lighting House',
];

export const DEALER_SUFFIXES = ['', '', '', ' Pvt Ltd', ' and Sons', ' and Co', ' LLP'];

export const BANKS = [
  'State Bank of India', 'HDFC Bank', 'ICICI Bank', 'Axis Bank', 'Punjab National Bank', 'Bank of Baroda',
  'Canara Bank', 'Union Bank of India', 'Kotak Mahindra Bank', 'IndusInd Bank', 'Bank of India', 'Indian Bank',
  'Yes Bank', 'IDBI Bank', 'Federal Bank',
];

export const TRANSPORTERS = [
  'VRL Logistics', 'Gati Express', 'TCI Express', 'Safexpress', 'Delhivery', 'Blue Dart', 'DTDC', 'Rivigo',
  'Shree Maruti Courier', 'Om Logistics',
];
