/** One page of a listing, as repositories return it. */
export interface Page<T> {
  items: T[];
  total: number;
  /** Set on searches only: true when `total` is a lower bound (more match; see searchCountCap). */
  totalIsLowerBound?: boolean;
}

/** Page number (from 1) and size of a listing request. */
export interface PageRequest {
  page: number;
  limit: number;
}

export const offsetOf = ({ page, limit }: PageRequest): number => (page - 1) * limit;
